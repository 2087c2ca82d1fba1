package dev.matview.replica;

import java.util.List;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.jspecify.annotations.Nullable;

/**
 * The store of one partition ({@link RocksDBKeyValueStore}), unchanged, that registers with the
 * {@link StoreHandles} once Kafka Streams has opened it and leaves them before Kafka Streams closes
 * it, refuses an update whose changelog record would be too large before the store keeps it, and
 * tells the partition's {@link ReplicaHandle} when the record cache above it wrote a key. It is a
 * {@link TimestampedBytesStore} like the store it wraps, so Kafka Streams stores timestamps in it
 * as usual. The table view's aggregation, above the cache, tells the change feed of each update.
 */
final class RegisteredKeyValueStore
    extends WrappedStore<KeyValueStore<Bytes, byte[]>, ReplicaHandle>
    implements KeyValueStore<Bytes, byte[]>, TimestampedBytesStore {

  RegisteredKeyValueStore(
      KeyValueStore<Bytes, byte[]> store, StoreHandles handles, ChangelogSizeCheck sizeCheck) {
    super(requireTimestamped(store), handles.positions(), handles.tables(), sizeCheck);
  }

  @Override
  public void put(Bytes key, byte @Nullable [] value) {
    checkSize(key, value, Long.BYTES);
    this.store.put(key, value);
    written(key);
  }

  @Override
  public byte @Nullable [] putIfAbsent(Bytes key, byte @Nullable [] value) {
    checkSize(key, value, Long.BYTES);
    byte[] previous = this.store.putIfAbsent(key, value);
    written(key);
    return previous;
  }

  @Override
  public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
    for (KeyValue<Bytes, byte[]> entry : entries) {
      checkSize(entry.key, entry.value, Long.BYTES);
    }
    this.store.putAll(entries);
    for (KeyValue<Bytes, byte[]> entry : entries) {
      written(entry.key);
    }
  }

  @Override
  public byte @Nullable [] delete(Bytes key) {
    byte[] previous = this.store.delete(key);
    written(key);
    return previous;
  }

  /** RocksDB has the latest update of {@code key}: lookups may read it there again. */
  private void written(Bytes key) {
    ReplicaHandle open = handle();
    if (open != null) {
      open.written(key);
    }
  }

  @Override
  public byte @Nullable [] get(Bytes key) {
    return this.store.get(key);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
    return this.store.range(from, to);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
    return this.store.reverseRange(from, to);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> all() {
    return this.store.all();
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseAll() {
    return this.store.reverseAll();
  }

  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(
      P prefix, PS prefixKeySerializer) {
    return this.store.prefixScan(prefix, prefixKeySerializer);
  }

  @Override
  public long approximateNumEntries() {
    return this.store.approximateNumEntries();
  }
}
