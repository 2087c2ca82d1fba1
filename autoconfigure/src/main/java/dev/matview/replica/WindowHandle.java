package dev.matview.replica;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.WindowStore;

/**
 * One open partition of a time-windowed view's store on this instance, and the windows whose latest
 * update Kafka Streams' record cache holds and has not yet written to RocksDB: a read of one of
 * their keys must go through the cache, as RocksDB has an older value or none.
 *
 * <p>Only the stream thread marks and clears windows; readers only ask whether a key has one.
 */
public final class WindowHandle implements PartitionHandle {

  private final WindowStore<Bytes, byte[]> store;

  private final int partition;

  private final ConcurrentMap<Bytes, Set<Long>> unwritten = new ConcurrentHashMap<>();

  WindowHandle(WindowStore<Bytes, byte[]> store, int partition) {
    this.store = store;
    this.partition = partition;
  }

  /**
   * The stream thread is about to keep an update of the window of {@code key} that starts at {@code
   * windowStart} in the record cache, which writes it to RocksDB when it flushes; until then {@link
   * #isUnwritten} says so for the key.
   */
  public void cached(byte[] key, long windowStart) {
    this.unwritten.compute(
        Bytes.wrap(key),
        (ignored, starts) -> {
          Set<Long> marked = (starts != null) ? starts : new HashSet<>(4);
          marked.add(windowStart);
          return marked;
        });
  }

  /** The record cache wrote the update of one window of {@code key} to RocksDB. */
  void written(Bytes key, long windowStart) {
    if (!this.unwritten.isEmpty()) {
      this.unwritten.computeIfPresent(
          key,
          (ignored, starts) -> {
            starts.remove(windowStart);
            return starts.isEmpty() ? null : starts;
          });
    }
  }

  /**
   * Whether the record cache holds an update of a window of {@code key} that RocksDB has not yet: a
   * read of the key's windows from RocksDB alone would miss it.
   */
  public boolean isUnwritten(byte[] key) {
    return !this.unwritten.isEmpty() && this.unwritten.containsKey(Bytes.wrap(key));
  }

  /** Whether the record cache holds an update of any window that RocksDB has not yet. */
  public boolean hasUnwritten() {
    return !this.unwritten.isEmpty();
  }

  /** The partition's bytes store, whose values carry Kafka Streams' 8-byte timestamp. */
  @Override
  public WindowStore<Bytes, byte[]> store() {
    return this.store;
  }

  @Override
  public int partition() {
    return this.partition;
  }
}
