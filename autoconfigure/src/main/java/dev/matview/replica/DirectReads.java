package dev.matview.replica;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
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
 * <p>The accessor is internal to Kafka Streams (4.1): if a version lacks it, {@link #of} answers
 * {@code null} and lookups read through the store's public, synchronized {@code get}.
 */
final class DirectReads {

  private static final Log logger = LogFactory.getLog(DirectReads.class);

  private static final @Nullable Class<?> STORE_TYPE;

  private static final @Nullable MethodHandle DB_ACCESSOR;

  private static final @Nullable MethodHandle CF_ACCESSOR;

  private static final @Nullable MethodHandle GET_ONLY;

  static {
    Class<?> storeType = null;
    MethodHandle dbAccessor = null;
    MethodHandle cfAccessor = null;
    MethodHandle getOnly = null;
    try {
      String internals = "org.apache.kafka.streams.state.internals.";
      storeType = Class.forName(internals + "RocksDBStore");
      Class<?> dbAccessorType = Class.forName(internals + "RocksDBStore$DBAccessor");
      Class<?> cfAccessorType = Class.forName(internals + "RocksDBStore$ColumnFamilyAccessor");
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
      storeType = null;
      logger.debug(
          "Lookups read Kafka Streams' RocksDB stores through their synchronized get: this Kafka"
              + " Streams version has no column family accessor to read them directly",
          ex);
    }
    STORE_TYPE = storeType;
    DB_ACCESSOR = dbAccessor;
    CF_ACCESSOR = cfAccessor;
    GET_ONLY = getOnly;
  }

  private final Object database;

  private final Object columnFamily;

  private DirectReads(Object database, Object columnFamily) {
    this.database = database;
    this.columnFamily = columnFamily;
  }

  /**
   * Direct reads of {@code store}, opened, or {@code null} when it is not Kafka's RocksDB store.
   */
  static @Nullable DirectReads of(KeyValueStore<Bytes, byte[]> store) {
    if (STORE_TYPE == null
        || DB_ACCESSOR == null
        || CF_ACCESSOR == null
        || !STORE_TYPE.isInstance(store)) {
      return null;
    }
    try {
      Object database = DB_ACCESSOR.invoke(store);
      Object columnFamily = CF_ACCESSOR.invoke(store);
      return (database != null && columnFamily != null)
          ? new DirectReads(database, columnFamily)
          : null;
    } catch (Throwable ex) {
      logger.debug("Store '" + store.name() + "' is read through its synchronized get", ex);
      return null;
    }
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

  private static MethodHandle requireNonNullHandle() {
    MethodHandle handle = GET_ONLY;
    if (handle == null) {
      throw new IllegalStateException("Direct reads are used only when available");
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
