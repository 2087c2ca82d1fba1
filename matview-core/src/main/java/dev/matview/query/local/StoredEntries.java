package dev.matview.query.local;

import dev.matview.topology.ResolvedView;
import java.util.Arrays;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.jspecify.annotations.Nullable;

/**
 * A table view's stored entries, read from the bytes store of one partition: each key read with the
 * view's key serde and each value, past Kafka Streams' 8-byte timestamp, with its aggregate serde.
 *
 * @param <K> the view's key type
 */
final class StoredEntries<K> implements KeyValueIterator<K, Object> {

  private final ResolvedView<K, ?, ?> view;

  private final String topic;

  private final KeyValueIterator<Bytes, byte[]> stored;

  StoredEntries(ResolvedView<K, ?, ?> view, String topic, KeyValueIterator<Bytes, byte[]> stored) {
    this.view = view;
    this.topic = topic;
    this.stored = stored;
  }

  @Override
  public boolean hasNext() {
    return this.stored.hasNext();
  }

  @Override
  public KeyValue<K, Object> next() {
    KeyValue<Bytes, byte[]> entry = this.stored.next();
    K key = this.view.keySerde().deserializer().deserialize(this.topic, entry.key.get());
    return KeyValue.pair(key, value(this.view, this.topic, entry.value));
  }

  @Override
  public K peekNextKey() {
    return this.view
        .keySerde()
        .deserializer()
        .deserialize(this.topic, this.stored.peekNextKey().get());
  }

  @Override
  public void close() {
    this.stored.close();
  }

  /** The aggregate in a timestamped store's value: Kafka Streams' 8-byte timestamp, then it. */
  static @Nullable Object value(
      ResolvedView<?, ?, ?> view, String topic, byte @Nullable [] stored) {
    if (stored == null) {
      return null;
    }
    return view.aggregateSerde()
        .deserializer()
        .deserialize(topic, Arrays.copyOfRange(stored, Long.BYTES, stored.length));
  }
}
