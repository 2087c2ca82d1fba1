package dev.matview.topology;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

/**
 * An aggregate that a view's aggregation has already serialized, put into the view's store as its
 * bytes. The aggregation serializes each aggregate once, to check the size of its changelog record
 * and to tell change streams; the store's serde ({@link #storeSerde}) takes these bytes as they are
 * rather than serializing the aggregate a second time. The bytes travel with the put itself, so
 * nothing is kept between the aggregation and the serializer, whichever task or thread puts.
 *
 * <p>A view's store is therefore typed with {@code Object} values: it is given serialized
 * aggregates and gives back aggregates, as its deserializer reads them ({@link #aggregate}).
 */
final class SerializedAggregate {

  private final byte[] bytes;

  private SerializedAggregate(byte[] bytes) {
    this.bytes = bytes;
  }

  /** {@code bytes}, an aggregate serialized for the store's changelog topic; null for none. */
  static @Nullable SerializedAggregate of(byte @Nullable [] bytes) {
    return (bytes != null) ? new SerializedAggregate(bytes) : null;
  }

  /**
   * The serde of a view's store values: it writes a {@link SerializedAggregate} as its bytes and
   * any other value as an aggregate with {@code aggregates}, and reads aggregates with {@code
   * aggregates}.
   */
  @SuppressWarnings("unchecked")
  static <A> Serde<Object> storeSerde(Serde<A> aggregates) {
    Deserializer<Object> reader = (Deserializer<Object>) aggregates.deserializer();
    return Serdes.serdeFrom(new StoreSerializer<>(aggregates.serializer()), reader);
  }

  /** A value read from a view's store: an aggregate, as the store's deserializer reads it. */
  @SuppressWarnings("unchecked")
  static <A> A aggregate(Object stored) {
    return (A) stored;
  }

  /** Writes a serialized aggregate as it is, and serializes any other value as an aggregate. */
  private static final class StoreSerializer<A> implements Serializer<Object> {

    private final Serializer<A> aggregates;

    StoreSerializer(Serializer<A> aggregates) {
      this.aggregates = aggregates;
    }

    @Override
    @SuppressWarnings("unchecked")
    public byte @Nullable [] serialize(String topic, @Nullable Object value) {
      if (value instanceof SerializedAggregate serialized) {
        return serialized.bytes;
      }
      return this.aggregates.serialize(topic, (A) value);
    }

    @Override
    public void close() {
      this.aggregates.close();
    }
  }
}
