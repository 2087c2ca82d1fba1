package dev.matview.replica;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jspecify.annotations.Nullable;

/**
 * Reads a key from Kafka's RocksDB store without taking the store's monitor. Kafka Streams' {@code
 * RocksDBStore.get} is {@code synchronized}, so lookups on many request threads queue behind each
 * other on one store partition (and behind the stream thread's writes), although RocksDB reads are
 * thread-safe; a thread descheduled while it holds the monitor stalls every other for a time slice.
 * This reads through the store's own column family accessor instead, with its read-only {@code
 * getOnly}, which also reads values a store kept in the format before timestamps. What keeps the
 * database open meanwhile is the caller's job ({@link ReplicaHandle}).
 *
 * <p>No public API of Kafka Streams offers this read: the accessors are internal to Kafka Streams
 * 4.1, reached by reflection. A store that is Kafka's RocksDB store but whose accessors cannot be
 * had, as after an upgrade of Kafka Streams that changed them, is refused when it opens, with an
 * exception that says so; it is never read through the slower {@code get} unnoticed.
 */
final class DirectReads {

  private static final String INTERNALS = "org.apache.kafka.streams.state.internals.";

  private static final @Nullable Class<?> STORE_TYPE;

  private static final @Nullable MethodHandle DB_ACCESSOR;

  private static final @Nullable MethodHandle CF_ACCESSOR;

  private static final @Nullable MethodHandle GET_ONLY;

  /** Why the accessors cannot be had, or {@code null} when they can. */
  private static final @Nullable Throwable MISSING;

  static {
    Class<?> storeType = null;
    MethodHandle dbAccessor = null;
    MethodHandle cfAccessor = null;
    MethodHandle getOnly = null;
    Throwable missing = null;
    try {
      storeType = Class.forName(INTERNALS + "RocksDBStore");
      Class<?> dbAccessorType = Class.forName(INTERNALS + "RocksDBStore$DBAccessor");
      Class<?> cfAccessorType = Class.forName(INTERNALS + "RocksDBStore$ColumnFamilyAccessor");
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      dbAccessor = getter(lookup, storeType, "dbAccessor");
      cfAccessor = getter(lookup, storeType, "cfAccessor");
      Method read = cfAccessorType.getDeclaredMethod("getOnly", dbAccessorType, byte[].class);
      read.setAccessible(true);
      getOnly =
          lookup
              .unreflect(read)
              .asType(
                  MethodType.methodType(byte[].class, Object.class, Object.class, byte[].class));
    } catch (ReflectiveOperationException | RuntimeException ex) {
      missing = ex;
    }
    STORE_TYPE = storeType;
    DB_ACCESSOR = dbAccessor;
    CF_ACCESSOR = cfAccessor;
    GET_ONLY = getOnly;
    MISSING = missing;
  }

  private final Object database;

  private final Object columnFamily;

  private DirectReads(Object database, Object columnFamily) {
    this.database = database;
    this.columnFamily = columnFamily;
  }

  /**
   * Direct reads of {@code store}, opened, or {@code null} when it is not Kafka's RocksDB store.
   *
   * @throws IllegalStateException when it is Kafka's RocksDB store and this Kafka Streams version
   *     does not offer the accessors to read it directly
   */
  static @Nullable DirectReads of(KeyValueStore<Bytes, byte[]> store) {
    return of(store, MISSING);
  }

  /** As {@link #of(KeyValueStore)}, the accessors missing for the reason {@code missing} if any. */
  static @Nullable DirectReads of(KeyValueStore<Bytes, byte[]> store, @Nullable Throwable missing) {
    if (!isKafkasRocksDbStore(store)) {
      return null;
    }
    MethodHandle dbAccessor = DB_ACCESSOR;
    MethodHandle cfAccessor = CF_ACCESSOR;
    if (missing != null || dbAccessor == null || cfAccessor == null || GET_ONLY == null) {
      throw unavailable(store, missing);
    }
    if (STORE_TYPE == null || !STORE_TYPE.isInstance(store)) {
      throw unavailable(store, null);
    }
    Object database;
    Object columnFamily;
    try {
      database = dbAccessor.invoke(store);
      columnFamily = cfAccessor.invoke(store);
    } catch (Throwable ex) {
      throw unavailable(store, ex);
    }
    if (database == null || columnFamily == null) {
      throw unavailable(store, null);
    }
    return new DirectReads(database, columnFamily);
  }

  /** The stored value of {@code key}, with Kafka Streams' timestamp, or {@code null}. */
  byte @Nullable [] get(String storeName, byte[] key) {
    try {
      return (byte[]) requireNonNullHandle().invokeExact(this.columnFamily, this.database, key);
    } catch (RuntimeException | Error ex) {
      throw ex;
    } catch (Throwable ex) {
      throw new ProcessorStateException("Error while reading a key from store " + storeName, ex);
    }
  }

  /**
   * Whether {@code store} is Kafka's RocksDB store: an instance of its type, or, should this Kafka
   * Streams version have moved it, a persistent store of Kafka Streams' own.
   */
  private static boolean isKafkasRocksDbStore(KeyValueStore<Bytes, byte[]> store) {
    return (STORE_TYPE != null && STORE_TYPE.isInstance(store))
        || (store.persistent() && store.getClass().getName().startsWith(INTERNALS));
  }

  private static IllegalStateException unavailable(
      KeyValueStore<Bytes, byte[]> store, @Nullable Throwable cause) {
    return new IllegalStateException(
        "Store '"
            + store.name()
            + "' is Kafka Streams' RocksDB store ("
            + store.getClass().getName()
            + "), which Matview reads without the store's lock through internals of Kafka Streams"
            + " 4.1 (RocksDBStore's dbAccessor and cfAccessor, ColumnFamilyAccessor.getOnly),"
            + " but the Kafka Streams on the classpath, version "
            + AppInfoParser.getVersion()
            + ", does not offer them: use the Kafka Streams version that this Matview release"
            + " manages",
        cause);
  }

  private static MethodHandle requireNonNullHandle() {
    MethodHandle handle = GET_ONLY;
    if (handle == null) {
      throw new IllegalStateException("Direct reads are made only when available");
    }
    return handle;
  }

  private static MethodHandle getter(MethodHandles.Lookup lookup, Class<?> type, String name)
      throws ReflectiveOperationException {
    Field field = type.getDeclaredField(name);
    field.setAccessible(true);
    return lookup.unreflectGetter(field).asType(MethodType.methodType(Object.class, Object.class));
  }
}
