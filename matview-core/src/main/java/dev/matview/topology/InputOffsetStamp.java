package dev.matview.topology;

import org.apache.kafka.streams.processor.api.ContextualFixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Stamps a re-keyed view's record, on its way to the repartition topic, with the partition and
 * offset of the source record it came from ({@link InputOffsetHeader}).
 *
 * @param <K> the record key type
 * @param <V> the record value type
 */
final class InputOffsetStamp<K, V> extends ContextualFixedKeyProcessor<K, V, V> {

  @Override
  public void process(FixedKeyRecord<K, V> record) {
    FixedKeyProcessorContext<K, V> context = context();
    RecordMetadata metadata = context.recordMetadata().orElse(null);
    if (metadata != null) {
      InputOffsetHeader.set(record.headers(), metadata.partition(), metadata.offset());
    }
    context.forward(record);
  }
}
