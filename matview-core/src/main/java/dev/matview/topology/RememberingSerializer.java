package dev.matview.topology;

import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

/**
 * A serializer that hands back, once, the bytes it just made for a value when the same thread asks
 * for that very value again: the table aggregation serializes each aggregate to check its size and
 * tell change streams, and the store it then puts the aggregate into would serialize it a second
 * time.
 *
 * @param <T> the type serialized
 */
final class RememberingSerializer<T> implements Serializer<T> {

  private final Serializer<T> serializer;

  private final ThreadLocal<Remembered> remembered = ThreadLocal.withInitial(Remembered::new);

  RememberingSerializer(Serializer<T> serializer) {
    this.serializer = serializer;
  }

  /** Serializes {@code value} and remembers the bytes for the next call with it on this thread. */
  byte @Nullable [] serializeAndRemember(String topic, T value) {
    byte[] bytes = this.serializer.serialize(topic, value);
    Remembered last = this.remembered.get();
    last.value = value;
    last.topic = topic;
    last.bytes = bytes;
    return bytes;
  }

  @Override
  public byte @Nullable [] serialize(String topic, @Nullable T value) {
    Remembered last = this.remembered.get();
    Object known = last.value;
    if (known != null && known == value && topic.equals(last.topic)) {
      byte[] bytes = last.bytes;
      last.value = null;
      last.bytes = null;
      return bytes;
    }
    return this.serializer.serialize(topic, value);
  }

  @Override
  public void close() {
    this.serializer.close();
  }

  /** The last value serialized on one thread, and its bytes, until they are handed back. */
  private static final class Remembered {

    private @Nullable Object value;

    private @Nullable String topic;

    private byte @Nullable [] bytes;
  }
}
