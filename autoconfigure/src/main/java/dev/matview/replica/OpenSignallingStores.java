package dev.matview.replica;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.ObjIntConsumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;
import org.jspecify.annotations.Nullable;

/**
 * Kafka's window and session stores, unchanged but for one thing: once Kafka Streams has opened a
 * partition of one, they say so, as the table stores' handles do. The stores are proxies that pass
 * every call on to Kafka's store, default methods included, so that none of the many overloads of
 * these interfaces can be missed.
 */
final class OpenSignallingStores {

  private OpenSignallingStores() {}

  /** {@code supplier}, whose stores tell {@code opened} their name and partition once opened. */
  static WindowBytesStoreSupplier window(
      WindowBytesStoreSupplier supplier, ObjIntConsumer<String> opened) {
    return new WindowBytesStoreSupplier() {
      @Override
      public String name() {
        return supplier.name();
      }

      @Override
      @SuppressWarnings("unchecked")
      public WindowStore<Bytes, byte[]> get() {
        return signalling(WindowStore.class, supplier.get(), opened);
      }

      @Override
      public String metricsScope() {
        return supplier.metricsScope();
      }

      @Override
      public long segmentIntervalMs() {
        return supplier.segmentIntervalMs();
      }

      @Override
      public long windowSize() {
        return supplier.windowSize();
      }

      @Override
      public boolean retainDuplicates() {
        return supplier.retainDuplicates();
      }

      @Override
      public long retentionPeriod() {
        return supplier.retentionPeriod();
      }
    };
  }

  /** {@code supplier}, whose stores tell {@code opened} their name and partition once opened. */
  static SessionBytesStoreSupplier session(
      SessionBytesStoreSupplier supplier, ObjIntConsumer<String> opened) {
    return new SessionBytesStoreSupplier() {
      @Override
      public String name() {
        return supplier.name();
      }

      @Override
      @SuppressWarnings("unchecked")
      public SessionStore<Bytes, byte[]> get() {
        return signalling(SessionStore.class, supplier.get(), opened);
      }

      @Override
      public String metricsScope() {
        return supplier.metricsScope();
      }

      @Override
      public long segmentIntervalMs() {
        return supplier.segmentIntervalMs();
      }

      @Override
      public long retentionPeriod() {
        return supplier.retentionPeriod();
      }
    };
  }

  /**
   * {@code store} behind a proxy of {@code type}, a {@link TimestampedBytesStore} too when {@code
   * store} is one, so that Kafka Streams keeps timestamps in it as it would without the proxy.
   */
  private static <S extends StateStore> S signalling(
      Class<S> type, S store, ObjIntConsumer<String> opened) {
    Class<?>[] types =
        (store instanceof TimestampedBytesStore)
            ? new Class<?>[] {type, TimestampedBytesStore.class}
            : new Class<?>[] {type};
    return type.cast(
        Proxy.newProxyInstance(
            OpenSignallingStores.class.getClassLoader(), types, new Signalling(store, opened)));
  }

  /** Passes every call on to the store, and tells of its opening after {@code init}. */
  private record Signalling(StateStore store, ObjIntConsumer<String> opened)
      implements InvocationHandler {

    @Override
    public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args)
        throws Throwable {
      if (method.getDeclaringClass() == Object.class) {
        return switch (method.getName()) {
          case "equals" -> args != null && proxy == args[0];
          case "hashCode" -> System.identityHashCode(proxy);
          default -> "signalling " + this.store;
        };
      }
      Object result;
      try {
        result = method.invoke(this.store, args);
      } catch (InvocationTargetException ex) {
        throw ex.getCause();
      }
      if (method.getName().equals("init")
          && args != null
          && args.length == 2
          && args[0] instanceof StateStoreContext context) {
        this.opened.accept(this.store.name(), context.taskId().partition());
      }
      return result;
    }
  }
}
