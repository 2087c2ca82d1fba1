package dev.matview.benchmarks.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Sends orders one at a time as {@link OrdersProducer} writes them, each at once (no linger, no
 * batching with others) and acknowledged by the broker before {@link #send} returns.
 */
public final class OrderSender implements AutoCloseable {

  private static final Duration ACK_TIMEOUT = Duration.ofSeconds(30);

  private final KafkaProducer<String, String> producer;

  private final String topic;

  /** A sender of orders to {@code topic} on {@code bootstrapServers}. */
  public OrderSender(String bootstrapServers, String topic) {
    this.topic = topic;
    this.producer = new KafkaProducer<>(unbatched(bootstrapServers));
  }

  /**
   * The settings of a producer that sends each order at once, not lingering to batch it with
   * others, and counts it sent once every replica has it.
   */
  public static Map<String, Object> unbatched(String bootstrapServers) {
    return StringProducers.settings(
        bootstrapServers,
        Map.of(ProducerConfig.LINGER_MS_CONFIG, 0, ProducerConfig.ACKS_CONFIG, "all"));
  }

  /**
   * Sends the order {@code orderId} of {@code customerId}, its amount that of order {@code index},
   * and returns where the broker wrote it once the broker has acknowledged it.
   */
  public RecordMetadata send(String orderId, String customerId, long index) {
    ProducerRecord<String, String> order =
        new ProducerRecord<>(this.topic, orderId, OrdersProducer.json(orderId, customerId, index));
    try {
      return this.producer.send(order).get(ACK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while sending " + orderId, ex);
    } catch (ExecutionException | TimeoutException ex) {
      throw new IllegalStateException("Could not send " + orderId + " to " + this.topic, ex);
    }
  }

  @Override
  public void close() {
    this.producer.close();
  }
}
