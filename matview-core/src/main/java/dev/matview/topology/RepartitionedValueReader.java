package dev.matview.topology;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.ContextualFixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Reads a re-keyed view's record value after its repartition topic, which carries the bytes the
 * view read from its source topic ({@link SourceValue}); a value it cannot read raises a {@link
 * RecordDecodingException}, which makes the record a dead letter.
 */
final class RepartitionedValueReader<K, V> extends ContextualFixedKeyProcessor<K, byte[], V> {

  private final String view;

  private final Deserializer<V> deserializer;

  RepartitionedValueReader(String view, Deserializer<V> deserializer) {
    this.view = view;
    this.deserializer = deserializer;
  }

  @Override
  public void process(FixedKeyRecord<K, byte[]> record) {
    FixedKeyProcessorContext<K, V> context = context();
    context.forward(
        record.withValue(RecordDecoder.readValue(this.view, this.deserializer, context, record)));
  }
}
