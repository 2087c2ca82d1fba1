package dev.matview.topology;

import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

/**
 * Refuses a view's aggregate that could not be written to the view's changelog topic, as its store
 * serializes it and before the store keeps it: an aggregate the producer would refuse would
 * otherwise stay in RocksDB without its changelog record, and a restore would change the answer.
 *
 * <p>A store serializes the key and then the value of each update on the stream thread, so the
 * guard's key serializer notes the key's length on that thread and its value serializer adds it to
 * the value's length and {@link #OVERHEAD}. One guard serves one view's store.
 */
final class ChangelogSizeGuard {

  /**
   * Bytes kept free for what Kafka adds to a changelog record: the batch header, the record's
   * length fields, a window's start and sequence number or a session's bounds in the key, and the
   * headers Kafka Streams writes.
   */
  static final int OVERHEAD = 1024;

  private final String view;

  private final int maxBytes;

  private final ThreadLocal<int[]> keyLength = ThreadLocal.withInitial(() -> new int[1]);

  /** A guard for the store of {@code view}, whose changelog records may have {@code maxBytes}. */
  ChangelogSizeGuard(String view, int maxBytes) {
    this.view = view;
    this.maxBytes = maxBytes;
  }

  /** {@code serde}, noting the length of each key it writes. */
  <K> Serde<K> keys(Serde<K> serde) {
    return Serdes.serdeFrom(new KeySerializer<>(serde.serializer()), serde.deserializer());
  }

  /** {@code serde}, refusing an aggregate whose changelog record would be too large. */
  <A> Serde<A> aggregates(Serde<A> serde) {
    return Serdes.serdeFrom(new AggregateSerializer<>(serde.serializer()), serde.deserializer());
  }

  private byte @Nullable [] noted(byte @Nullable [] key) {
    this.keyLength.get()[0] = (key != null) ? key.length : 0;
    return key;
  }

  private byte @Nullable [] checked(byte @Nullable [] aggregate) {
    if (aggregate != null) {
      long bytes = (long) this.keyLength.get()[0] + aggregate.length + OVERHEAD;
      if (bytes > this.maxBytes) {
        throw new AggregateTooLargeException(this.view, bytes, this.maxBytes);
      }
    }
    return aggregate;
  }

  private final class KeySerializer<K> implements Serializer<K> {

    private final Serializer<K> delegate;

    KeySerializer(Serializer<K> delegate) {
      this.delegate = delegate;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
      this.delegate.configure(configs, isKey);
    }

    @Override
    public byte @Nullable [] serialize(String topic, K data) {
      return noted(this.delegate.serialize(topic, data));
    }

    @Override
    public byte @Nullable [] serialize(String topic, Headers headers, K data) {
      return noted(this.delegate.serialize(topic, headers, data));
    }

    @Override
    public void close() {
      this.delegate.close();
    }
  }

  private final class AggregateSerializer<A> implements Serializer<A> {

    private final Serializer<A> delegate;

    AggregateSerializer(Serializer<A> delegate) {
      this.delegate = delegate;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
      this.delegate.configure(configs, isKey);
    }

    @Override
    public byte @Nullable [] serialize(String topic, A data) {
      return checked(this.delegate.serialize(topic, data));
    }

    @Override
    public byte @Nullable [] serialize(String topic, Headers headers, A data) {
      return checked(this.delegate.serialize(topic, headers, data));
    }

    @Override
    public void close() {
      this.delegate.close();
    }
  }
}
