package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.Test;

/**
 * The stores and suppliers of this package that wrap Kafka's pass on every method of Kafka's
 * interfaces, default methods included: a method that a Kafka Streams upgrade adds fails here until
 * the wrapper passes it on, where it would otherwise run the interface's default over the wrapper
 * instead of Kafka's own store. Matview's own key-value store implements every method too, where a
 * default would refuse the call.
 */
class StoreWrappersTests {

  private final StoreHandles handles = new StoreHandles();

  private final ChangelogSizeCheck anySize = (key, value) -> {};

  @Test
  void theWindowStorePassesOnEveryMethodOfKafkasWindowStore() {
    assertThat(notPassedOn(SignallingWindowStore.class, WindowStore.class)).isEmpty();
  }

  @Test
  void theSessionStorePassesOnEveryMethodOfKafkasSessionStore() {
    assertThat(notPassedOn(SignallingSessionStore.class, SessionStore.class)).isEmpty();
  }

  @Test
  void theKeyValueStorePassesOnEveryMethodOfKafkasKeyValueStore() {
    assertThat(notPassedOn(RegisteredKeyValueStore.class, KeyValueStore.class)).isEmpty();
  }

  @Test
  void matviewsRocksDbStoreImplementsEveryMethodOfKafkasKeyValueStore() {
    assertThat(notPassedOn(RocksDBKeyValueStore.class, KeyValueStore.class)).isEmpty();
  }

  @Test
  void theSuppliersPassOnEveryMethodOfKafkasSuppliers() {
    Duration minute = Duration.ofMinutes(1);
    assertThat(
            notPassedOn(
                this.handles.windowStore("windows", minute, minute, this.anySize).getClass(),
                WindowBytesStoreSupplier.class))
        .isEmpty();
    assertThat(
            notPassedOn(
                this.handles.sessionStore("sessions", minute, this.anySize).getClass(),
                SessionBytesStoreSupplier.class))
        .isEmpty();
    assertThat(
            notPassedOn(
                this.handles.keyValueStore("table", this.anySize).getClass(),
                KeyValueBytesStoreSupplier.class))
        .isEmpty();
  }

  /** The methods of {@code api} that neither {@code wrapper} nor a class it extends declares. */
  private static List<String> notPassedOn(Class<?> wrapper, Class<?> api) {
    return Arrays.stream(api.getMethods())
        .filter((method) -> !Modifier.isStatic(method.getModifiers()))
        .filter((method) -> !declares(wrapper, method))
        .map(Method::toGenericString)
        .sorted()
        .toList();
  }

  /**
   * Whether {@code wrapper} or a class it extends declares {@code method}, never an interface's
   * default: overriding a generic method also declares one with the erased parameter types, which
   * is what the interface's method has.
   */
  private static boolean declares(Class<?> wrapper, Method method) {
    for (Class<?> type = wrapper; type != Object.class; type = type.getSuperclass()) {
      try {
        type.getDeclaredMethod(method.getName(), method.getParameterTypes());
        return true;
      } catch (NoSuchMethodException ex) {
        // not declared at this level: look one class up
      }
    }
    return false;
  }
}
