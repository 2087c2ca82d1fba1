package dev.matview.query.local;

import dev.matview.topology.ResolvedView;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * A time-windowed view's stored windows, read from the bytes store of one partition: each key read
 * with the view's key serde and each value, past Kafka Streams' 8-byte timestamp, with its
 * aggregate serde.
 *
 * @param <K> the view's key type
 */
final class StoredWindows<K> implements KeyValueIterator<Windowed<K>, Object> {

  private final ResolvedView<K, ?, ?> view;

  private final String topic;

  private final boolean timestamped;

  private final KeyValueIterator<Windowed<Bytes>, byte[]> stored;

  /** The windows {@code stored} holds, values past a timestamp when {@code timestamped}. */
  StoredWindows(
      ResolvedView<K, ?, ?> view,
      String topic,
      boolean timestamped,
      KeyValueIterator<Windowed<Bytes>, byte[]> stored) {
    this.view = view;
    this.topic = topic;
    this.timestamped = timestamped;
    this.stored = stored;
  }

  @Override
  public boolean hasNext() {
    return this.stored.hasNext();
  }

  @Override
  public KeyValue<Windowed<K>, Object> next() {
    KeyValue<Windowed<Bytes>, byte[]> entry = this.stored.next();
    Object value =
        this.timestamped
            ? StoredEntries.value(this.view, this.topic, entry.value)
            : this.view.aggregateSerde().deserializer().deserialize(this.topic, entry.value);
    return KeyValue.pair(key(entry.key), value);
  }

  @Override
  public Windowed<K> peekNextKey() {
    return key(this.stored.peekNextKey());
  }

  private Windowed<K> key(Windowed<Bytes> stored) {
    K key = this.view.keySerde().deserializer().deserialize(this.topic, stored.key().get());
    return new Windowed<>(key, stored.window());
  }

  @Override
  public void close() {
    this.stored.close();
  }
}
