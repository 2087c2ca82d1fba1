package dev.matview.replica;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.jspecify.annotations.Nullable;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Matview's persistent key-value store of one table view partition, on RocksDB's public API: a
 * drop-in for Kafka Streams' timestamped RocksDB store (same directory, column families, value
 * format and options, the application's {@code rocksdb.config.setter} included), wrapped by Kafka
 * Streams' caching and change-logging stores as Kafka's would be.
 *
 * <p>No method takes a monitor: a lookup on a request thread reads RocksDB while the stream thread
 * writes it. The store's {@link ReadGate} keeps the database open meanwhile: its close waits for
 * the reads under way, and a later read is refused with an {@link InvalidStateStoreException}. It
 * also reads what the last committed transaction left ({@link CommittedReads}).
 *
 * <p>Its {@link Position} moves as Kafka's store's does: by each write to the record processed, by
 * a restore to the changelog records' ({@link ChangelogRestore}), and is kept from one commit to
 * the next opening ({@link PositionCheckpoint}).
 */
public final class RocksDBKeyValueStore
    implements KeyValueStore<Bytes, byte[]>, TimestampedBytesStore {

  private final String name;

  private volatile Position position = Position.emptyPosition();

  private volatile @Nullable KeyValueRocksDB database;

  private @Nullable StateStoreContext context;

  private volatile int partition;

  /** A store named {@code name}, opened by {@link #init}. */
  public RocksDBKeyValueStore(String name) {
    this.name = name;
  }

  @Override
  public void init(StateStoreContext context, StateStore root) {
    if (this.database != null) {
      throw new IllegalStateException("Store " + this.name + " is already open");
    }
    KeyValueRocksDB opened =
        KeyValueRocksDBOpener.open(this.name, context.stateDir(), context.appConfigs());
    try {
      PositionCheckpoint checkpoint =
          new PositionCheckpoint(context.stateDir().toPath().resolve(this.name + ".position"));
      Position checkpointed = checkpoint.read();
      this.position = checkpointed;
      this.context = context;
      this.partition = context.taskId().partition();
      this.database = opened;
      context.register(
          root,
          RestoreCallbacks.of(this.name, this::open, checkpointed, context.appConfigs()),
          () -> checkpoint.write(this.position));
    } catch (RuntimeException ex) {
      this.database = null;
      opened.close();
      throw ex;
    }
  }

  @Override
  public String name() {
    return this.name;
  }

  @Override
  public boolean persistent() {
    return true;
  }

  @Override
  public boolean isOpen() {
    return this.database != null;
  }

  @Override
  public void put(Bytes key, byte @Nullable [] value) {
    put(key, value, null);
  }

  /** Writes {@code value} of {@code key}, and answers {@code previous}. */
  private byte @Nullable [] put(Bytes key, byte @Nullable [] value, byte @Nullable [] previous) {
    Objects.requireNonNull(key, "key cannot be null");
    open().put(key.get(), value);
    advancePosition();
    return previous;
  }

  @Override
  public byte @Nullable [] putIfAbsent(Bytes key, byte @Nullable [] value) {
    byte[] previous = get(key);
    return (previous == null) ? put(key, value, null) : previous;
  }

  @Override
  public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
    KeyValueRocksDB open = open();
    try (WriteBatch batch = new WriteBatch()) {
      for (KeyValue<Bytes, byte[]> entry : entries) {
        Objects.requireNonNull(entry.key, "key cannot be null");
        open.add(batch, entry.key.get(), entry.value);
      }
      open.write(batch);
    } catch (RocksDBException ex) {
      throw new ProcessorStateException("Error while batch writing to store " + this.name, ex);
    }
    advancePosition();
  }

  @Override
  public byte @Nullable [] delete(Bytes key) {
    return put(key, null, get(key));
  }

  /** The stored value of {@code key}, or {@code null}: on any thread, without a lock. */
  @Override
  public byte @Nullable [] get(Bytes key) {
    Objects.requireNonNull(key, "key cannot be null");
    return open().get(key.get());
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> range(@Nullable Bytes from, @Nullable Bytes to) {
    return open().range(from, to, true, false, false);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseRange(@Nullable Bytes from, @Nullable Bytes to) {
    return open().range(from, to, false, false, false);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> all() {
    return open().range(null, null, true, false, false);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseAll() {
    return open().range(null, null, false, false, false);
  }

  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(
      P prefix, PS prefixKeySerializer) {
    Objects.requireNonNull(prefix, "prefix cannot be null");
    Objects.requireNonNull(prefixKeySerializer, "prefixKeySerializer cannot be null");
    Bytes from = Bytes.wrap(prefixKeySerializer.serialize(null, prefix));
    return open().range(from, RocksDBRange.afterPrefix(from), true, true, false);
  }

  @Override
  public long approximateNumEntries() {
    return open().approximateNumEntries();
  }

  /** The bytes of the store's live SST files on disk, on any thread; 0 once closed. */
  public long liveDataBytes() {
    KeyValueRocksDB open = this.database;
    return (open != null) ? open.liveDataBytes() : 0;
  }

  @Override
  public void flush() {
    KeyValueRocksDB open = this.database;
    if (open != null) {
      open.flush();
    }
  }

  /** Closes the database once the reads under way have ended; later reads are refused. */
  @Override
  public void close() {
    KeyValueRocksDB open = this.database;
    if (open != null) {
      this.database = null;
      open.close();
    }
  }

  @Override
  public <R> QueryResult<R> query(Query<R> query, PositionBound bound, QueryConfig config) {
    return RocksDBQueries.answer(this, this.position, this.partition, query, bound, config);
  }

  @Override
  public Position getPosition() {
    return this.position;
  }

  /** Moves the position to the record being processed, once its write is in RocksDB. */
  private void advancePosition() {
    StateStoreContext current = this.context;
    RecordMetadata record = (current != null) ? current.recordMetadata().orElse(null) : null;
    if (record != null && record.topic() != null) {
      this.position.withComponent(record.topic(), record.partition(), record.offset());
    }
  }

  /** Runs {@code action} on the database unless the store is closed. */
  void ifOpen(Consumer<KeyValueRocksDB> action) {
    KeyValueRocksDB open = this.database;
    if (open != null) {
      action.accept(open);
    }
  }

  /** The open database, which a restore writes into and committed reads read. */
  KeyValueRocksDB open() {
    KeyValueRocksDB open = this.database;
    if (open == null) {
      throw new InvalidStateStoreException("Store " + this.name + " is currently closed");
    }
    return open;
  }
}
