package dev.matview.replica;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;

/**
 * One open partition of a windowed or session view's store on this instance, and the windows
 * (sessions) whose latest update Kafka Streams' record cache holds and has not yet written to
 * RocksDB: a read of one of their keys must go through the cache, as RocksDB has an older value or
 * none.
 *
 * <p>Only the stream thread marks and clears windows; readers only ask whether a key has one.
 *
 * @param <S> Kafka's bytes store of the partition, below the cache
 */
public final class WindowHandle<S extends StateStore> implements PartitionHandle {

  private final S store;

  private final int partition;

  private final ConcurrentMap<Bytes, Set<Span>> unwritten = new ConcurrentHashMap<>();

  WindowHandle(S store, int partition) {
    this.store = store;
    this.partition = partition;
  }

  /**
   * The stream thread is about to keep an update (or the removal) of the window of {@code key} from
   * {@code start} to {@code end} in the record cache, which writes it to RocksDB when it flushes;
   * until then {@link #isUnwritten} says so for the key.
   */
  public void cached(byte[] key, long start, long end) {
    this.unwritten.compute(
        Bytes.wrap(key),
        (ignored, spans) -> {
          Set<Span> marked = (spans != null) ? spans : new HashSet<>(4);
          marked.add(new Span(start, end));
          return marked;
        });
  }

  /** The record cache wrote the update of one window of {@code key} to RocksDB. */
  void written(Bytes key, long start, long end) {
    if (!this.unwritten.isEmpty()) {
      this.unwritten.computeIfPresent(
          key,
          (ignored, spans) -> {
            spans.remove(new Span(start, end));
            return spans.isEmpty() ? null : spans;
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

  /** The partition's bytes store. */
  @Override
  public S store() {
    return this.store;
  }

  @Override
  public int partition() {
    return this.partition;
  }

  /** A window's bounds, in epoch milliseconds. */
  private record Span(long start, long end) {}
}
