package dev.matview.replica;

import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.jspecify.annotations.Nullable;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * The entries of a {@link RocksDBKeyValueStore} between two keys, in key order or its reverse, read
 * from the database as it was when the range was made (a RocksDB iterator reads one point in time,
 * however the store changes meanwhile). Each call holds the range's monitor, so that the store's
 * close, which closes every range still open, never frees the iterator under a read; a range read
 * after that close is refused, as Kafka's are.
 */
final class RocksDBRange implements KeyValueIterator<Bytes, byte[]> {

  private final String storeName;

  private final RocksIterator iterator;

  private final boolean forward;

  /** The key the range ends at in its direction, or {@code null} for none. */
  private final byte @Nullable [] end;

  private final boolean endIncluded;

  private final Consumer<RocksDBRange> whenClosed;

  private @Nullable KeyValue<Bytes, byte[]> next;

  private boolean done;

  private boolean open = true;

  /**
   * The entries of {@code iterator} from {@code from} to {@code to} (either {@code null} for no
   * bound), {@code to} included unless {@code toExcluded}; {@code whenClosed} is told once it
   * closes.
   */
  RocksDBRange(
      String storeName,
      RocksIterator iterator,
      @Nullable Bytes from,
      @Nullable Bytes to,
      boolean forward,
      boolean toExcluded,
      Consumer<RocksDBRange> whenClosed) {
    this.storeName = storeName;
    this.iterator = iterator;
    this.forward = forward;
    this.whenClosed = whenClosed;
    if (forward) {
      this.end = (to != null) ? to.get() : null;
      this.endIncluded = !toExcluded;
      if (from == null) {
        iterator.seekToFirst();
      } else {
        iterator.seek(from.get());
      }
    } else {
      this.end = (from != null) ? from.get() : null;
      this.endIncluded = true;
      if (to == null) {
        iterator.seekToLast();
      } else {
        iterator.seekForPrev(to.get());
      }
    }
  }

  /** A range without entries, which holds no iterator. */
  static KeyValueIterator<Bytes, byte[]> empty() {
    return new Empty();
  }

  @Override
  public synchronized boolean hasNext() {
    if (!this.open) {
      throw new InvalidStateStoreException(
          "RocksDB iterator for store " + this.storeName + " has closed");
    }
    if (this.next == null && !this.done) {
      this.next = read();
      this.done = this.next == null;
    }
    return this.next != null;
  }

  @Override
  public synchronized KeyValue<Bytes, byte[]> next() {
    KeyValue<Bytes, byte[]> entry = peek();
    this.next = null;
    return entry;
  }

  @Override
  public synchronized Bytes peekNextKey() {
    return peek().key;
  }

  @Override
  public synchronized void close() {
    if (this.open) {
      this.open = false;
      this.iterator.close();
      this.whenClosed.accept(this);
    }
  }

  private KeyValue<Bytes, byte[]> peek() {
    KeyValue<Bytes, byte[]> entry = hasNext() ? this.next : null;
    if (entry == null) {
      throw new NoSuchElementException("No entry left in the range of store " + this.storeName);
    }
    return entry;
  }

  private @Nullable KeyValue<Bytes, byte[]> read() {
    if (!this.iterator.isValid()) {
      failIfBroken();
      return null;
    }
    byte[] key = this.iterator.key();
    if (isPastEnd(key)) {
      return null;
    }
    KeyValue<Bytes, byte[]> entry = KeyValue.pair(Bytes.wrap(key), this.iterator.value());
    if (this.forward) {
      this.iterator.next();
    } else {
      this.iterator.prev();
    }
    return entry;
  }

  private boolean isPastEnd(byte[] key) {
    if (this.end == null) {
      return false;
    }
    int order = Arrays.compareUnsigned(key, this.end);
    int beyond = this.forward ? order : -order;
    return beyond > 0 || (beyond == 0 && !this.endIncluded);
  }

  /** Tells a range that ended because RocksDB failed to read from one that read every entry. */
  private void failIfBroken() {
    try {
      this.iterator.status();
    } catch (RocksDBException ex) {
      throw new ProcessorStateException(
          "Error while reading a range of store " + this.storeName, ex);
    }
  }

  /** The entries of no range. */
  private static final class Empty implements KeyValueIterator<Bytes, byte[]> {

    @Override
    public boolean hasNext() {
      return false;
    }

    @Override
    public KeyValue<Bytes, byte[]> next() {
      throw new NoSuchElementException("An empty range has no entry");
    }

    @Override
    public Bytes peekNextKey() {
      throw new NoSuchElementException("An empty range has no entry");
    }

    @Override
    public void close() {}
  }

  /** The first key after every key that starts with {@code prefix}, or none. */
  static @Nullable Bytes afterPrefix(Bytes prefix) {
    try {
      return Bytes.increment(prefix);
    } catch (IndexOutOfBoundsException ex) {
      return null;
    }
  }
}
