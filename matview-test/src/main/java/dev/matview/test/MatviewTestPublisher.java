package dev.matview.test;

import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * Publishes records to the source topics of the views of a {@link MatviewIntegrationTest}'s
 * application, on the slice's broker, and waits until the broker has them. A record is written as
 * the views read it: its key by the views' key serde, its value as JSON by the application's
 * mapper, or by the view's own serde where the view sets one. The slice offers one as a bean.
 *
 * <pre>{@code
 * @Autowired MatviewTestPublisher publisher;
 *
 * RecordMetadata sent = publisher.publish("orders", "order-1", new Order("order-1", "alice"));
 * }</pre>
 */
public final class MatviewTestPublisher implements AutoCloseable {

  /** How long a send may take before it fails. */
  private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

  private final String bootstrapServers;

  private final ViewRegistry registry;

  private final ObjectMapper mapper;

  private @Nullable KafkaProducer<byte[], byte[]> producer;

  MatviewTestPublisher(String bootstrapServers, ViewRegistry registry, ObjectMapper mapper) {
    this.bootstrapServers = bootstrapServers;
    this.registry = registry;
    this.mapper = mapper;
  }

  /**
   * Publishes {@code value} under {@code key} to {@code topic}, stamped with the current time, and
   * returns where it went: its topic, partition and offset, which {@link HttpView#after} waits for.
   *
   * @throws IllegalArgumentException when no view reads the topic, or reads it with other types
   */
  public RecordMetadata publish(String topic, @Nullable Object key, Object value) {
    return publish(topic, key, value, Instant.now());
  }

  /** Publishes {@code value} under {@code key} to {@code topic} with the record timestamp given. */
  @SuppressWarnings("unchecked")
  public RecordMetadata publish(
      String topic, @Nullable Object key, Object value, Instant timestamp) {
    Objects.requireNonNull(
        value, "value must not be null; publish a tombstone with publishRaw(topic, key, null)");
    ResolvedView<?, ?, ?> reader = reader(topic, key, value.getClass());
    Serde<Object> ownSerde = (Serde<Object>) reader.definition().source().valueSerde();
    byte[] written =
        (ownSerde != null)
            ? ownSerde.serializer().serialize(topic, value)
            : this.mapper.writeValueAsBytes(value);
    return send(topic, reader, key, written, timestamp);
  }

  /**
   * Publishes a record whose value is given as bytes, such as JSON text, malformed JSON, or {@code
   * null} for a tombstone, stamped with the current time.
   *
   * @throws IllegalArgumentException when no view reads the topic, or reads other keys
   */
  public RecordMetadata publishRaw(String topic, @Nullable Object key, byte @Nullable [] value) {
    return send(topic, reader(topic, key, null), key, value, Instant.now());
  }

  /** Closes the producer, once its records are sent. */
  @Override
  public synchronized void close() {
    if (this.producer != null) {
      this.producer.close(SEND_TIMEOUT);
      this.producer = null;
    }
  }

  private ResolvedView<?, ?, ?> reader(
      String topic, @Nullable Object key, @Nullable Class<?> valueType) {
    Objects.requireNonNull(topic, "topic must not be null");
    Class<?> keyType = (key != null) ? key.getClass() : null;
    return ViewChecks.readerOf(this.registry.all(), topic, keyType, valueType, "publish");
  }

  @SuppressWarnings("unchecked")
  private RecordMetadata send(
      String topic,
      ResolvedView<?, ?, ?> reader,
      @Nullable Object key,
      byte @Nullable [] value,
      Instant timestamp) {
    Objects.requireNonNull(timestamp, "timestamp must not be null");
    byte[] writtenKey =
        (key != null)
            ? ((Serde<Object>) reader.sourceKeySerde()).serializer().serialize(topic, key)
            : null;
    ProducerRecord<byte[], byte[]> record =
        new ProducerRecord<>(topic, null, timestamp.toEpochMilli(), writtenKey, value);
    try {
      return producer().send(record).get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while publishing to topic '" + topic + "'", ex);
    } catch (ExecutionException | TimeoutException ex) {
      throw new IllegalStateException(
          "Could not publish to topic '" + topic + "' on " + this.bootstrapServers, ex);
    }
  }

  private synchronized KafkaProducer<byte[], byte[]> producer() {
    if (this.producer == null) {
      this.producer =
          new KafkaProducer<>(
              Map.of(
                  ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                  this.bootstrapServers,
                  ProducerConfig.CLIENT_ID_CONFIG,
                  "matview-test-publisher",
                  ProducerConfig.LINGER_MS_CONFIG,
                  0),
              new ByteArraySerializer(),
              new ByteArraySerializer());
    }
    return this.producer;
  }
}
