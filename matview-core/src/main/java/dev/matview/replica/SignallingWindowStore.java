package dev.matview.replica;

import java.time.Instant;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.jspecify.annotations.Nullable;

/**
 * Kafka's timestamped window store of one partition, unchanged, that registers with the {@link
 * StoreHandles} once Kafka Streams has opened it and leaves them before Kafka Streams closes it,
 * refuses an update whose changelog record would be too large before Kafka's store keeps it, and
 * tells the partition's {@link WindowHandle} when the record cache above it wrote a window. Every
 * method of {@link WindowStore}, default methods included, is passed on, so that the store answers
 * each as Kafka's own would. The windowed aggregation, above the cache, tells the change feed of
 * each update.
 */
final class SignallingWindowStore
    extends WrappedStore<WindowStore<Bytes, byte[]>, WindowHandle<WindowStore<Bytes, byte[]>>>
    implements WindowStore<Bytes, byte[]>, TimestampedBytesStore {

  private final long windowSize;

  SignallingWindowStore(
      WindowStore<Bytes, byte[]> store,
      StoreHandles handles,
      ChangelogSizeCheck sizeCheck,
      long windowSize) {
    super(requireTimestamped(store), handles.positions(), handles.windows(), sizeCheck);
    this.windowSize = windowSize;
  }

  @Override
  public void put(Bytes key, byte @Nullable [] value, long windowStartTimestamp) {
    checkSize(key, value, Long.BYTES);
    this.store.put(key, value, windowStartTimestamp);
    WindowHandle<?> open = handle();
    if (open != null) {
      open.written(key, windowStartTimestamp, windowStartTimestamp + this.windowSize);
    }
  }

  @Override
  public byte @Nullable [] fetch(Bytes key, long time) {
    return this.store.fetch(key, time);
  }

  @Override
  public WindowStoreIterator<byte[]> fetch(Bytes key, long timeFrom, long timeTo) {
    return this.store.fetch(key, timeFrom, timeTo);
  }

  @Override
  public WindowStoreIterator<byte[]> fetch(Bytes key, Instant timeFrom, Instant timeTo) {
    return this.store.fetch(key, timeFrom, timeTo);
  }

  @Override
  public WindowStoreIterator<byte[]> backwardFetch(Bytes key, long timeFrom, long timeTo) {
    return this.store.backwardFetch(key, timeFrom, timeTo);
  }

  @Override
  public WindowStoreIterator<byte[]> backwardFetch(Bytes key, Instant timeFrom, Instant timeTo) {
    return this.store.backwardFetch(key, timeFrom, timeTo);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(
      @Nullable Bytes keyFrom, @Nullable Bytes keyTo, long timeFrom, long timeTo) {
    return this.store.fetch(keyFrom, keyTo, timeFrom, timeTo);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(
      @Nullable Bytes keyFrom, @Nullable Bytes keyTo, Instant timeFrom, Instant timeTo) {
    return this.store.fetch(keyFrom, keyTo, timeFrom, timeTo);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(
      @Nullable Bytes keyFrom, @Nullable Bytes keyTo, long timeFrom, long timeTo) {
    return this.store.backwardFetch(keyFrom, keyTo, timeFrom, timeTo);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(
      @Nullable Bytes keyFrom, @Nullable Bytes keyTo, Instant timeFrom, Instant timeTo) {
    return this.store.backwardFetch(keyFrom, keyTo, timeFrom, timeTo);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> fetchAll(long timeFrom, long timeTo) {
    return this.store.fetchAll(timeFrom, timeTo);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> fetchAll(Instant timeFrom, Instant timeTo) {
    return this.store.fetchAll(timeFrom, timeTo);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetchAll(long timeFrom, long timeTo) {
    return this.store.backwardFetchAll(timeFrom, timeTo);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetchAll(
      Instant timeFrom, Instant timeTo) {
    return this.store.backwardFetchAll(timeFrom, timeTo);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> all() {
    return this.store.all();
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> backwardAll() {
    return this.store.backwardAll();
  }
}
