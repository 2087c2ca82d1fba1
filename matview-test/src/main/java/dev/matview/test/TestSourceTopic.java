package dev.matview.test;

import dev.matview.topology.JsonSerde;
import dev.matview.topology.ResolvedView;
import java.time.Instant;
import java.util.Objects;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.TestInputTopic;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pipes records into a source topic of a {@link ViewTestDriver}'s views, serialized as the views
 * read them (JSON unless a view sets its own serde).
 *
 * @param <K> the record key type
 * @param <V> the record value type
 */
public final class TestSourceTopic<K, V> {

  private final ViewTestDriver owner;

  private final TestInputTopic<K, byte[]> input;

  private final String name;

  private final Serializer<V> valueSerializer;

  TestSourceTopic(
      ViewTestDriver owner,
      TestInputTopic<K, byte[]> input,
      String name,
      Serializer<V> valueSerializer) {
    this.owner = owner;
    this.input = input;
    this.name = name;
    this.valueSerializer = valueSerializer;
  }

  /**
   * The source topic {@code topic} of {@code owner}'s views, read by {@code reader}, whose values
   * are written as a producer would write them: by the view's own serde, or as JSON by the
   * application's {@code jsonMapper}, without the views' decimal bounds, so that a number out of
   * bounds reaches the views and becomes a dead letter.
   */
  @SuppressWarnings("unchecked")
  static <K, V> TestSourceTopic<K, V> of(
      ViewTestDriver owner, String topic, ResolvedView<?, ?, ?> reader, JsonMapper jsonMapper) {
    Serde<K> keySerde = (Serde<K>) reader.sourceKeySerde();
    Serde<V> valueSerde = (Serde<V>) reader.valueSerde();
    Serializer<V> values =
        (valueSerde instanceof JsonSerde<V> && reader.definition().source().valueSerde() == null)
            ? new JsonSerde<>((Class<V>) reader.definition().source().valueType(), jsonMapper)
            : valueSerde.serializer();
    return new TestSourceTopic<>(
        owner,
        owner
            .topologyTestDriver()
            .createInputTopic(topic, keySerde.serializer(), new ByteArraySerializer()),
        topic,
        values);
  }

  /** The topic's name. */
  public String name() {
    return this.name;
  }

  /**
   * Pipes a record stamped with the driver's wall-clock time, as a producer stamps it; a view that
   * reads event time from the value takes it from there.
   */
  public void pipe(@Nullable K key, V value) {
    pipe(key, value, this.owner.wallClockTime());
  }

  /** Pipes a record with the record timestamp {@code timestamp}. */
  public void pipe(@Nullable K key, V value, Instant timestamp) {
    Objects.requireNonNull(
        value, "value must not be null; pipe a tombstone with pipeRaw(key, null, timestamp)");
    pipeRaw(key, this.valueSerializer.serialize(this.name, value), timestamp);
  }

  /**
   * Pipes a record whose value is given as bytes, such as malformed JSON, or {@code null} for a
   * tombstone.
   */
  public void pipeRaw(@Nullable K key, byte @Nullable [] value, Instant timestamp) {
    Objects.requireNonNull(timestamp, "timestamp must not be null");
    this.owner.requireOpen();
    this.input.pipeInput(key, value, timestamp);
  }
}
