package dev.matview.benchmarks.kafka;

import java.time.Instant;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Publishes orders as the sample does: key {@code orderId}, JSON value; the {@code i}th order is
 * from {@code customer-(i mod customers)} and its amount is {@code 1 + (i mod 100)} and a half.
 */
public final class OrdersProducer {

  private OrdersProducer() {}

  /** The customer id of order {@code index}. */
  public static String customer(long index, long customers) {
    return "customer-" + (index % customers);
  }

  /** The amount of order {@code index}, as JSON. */
  public static String amount(long index) {
    return (1 + index % 100) + ".5";
  }

  /**
   * The order {@code orderId} of {@code customerId} as JSON, its amount that of order {@code
   * index}, placed now.
   */
  public static String json(String orderId, String customerId, long index) {
    return "{\"orderId\":\""
        + orderId
        + "\",\"customerId\":\""
        + customerId
        + "\",\"amount\":"
        + amount(index)
        + ",\"ts\":\""
        + Instant.now()
        + "\"}";
  }

  /**
   * The settings of a producer that publishes many orders at once: batched (10 ms linger, 256 KB
   * batches, lz4) and counted sent once the leader has them.
   */
  public static Map<String, Object> batched(String bootstrapServers) {
    return StringProducers.settings(
        bootstrapServers,
        Map.of(
            ProducerConfig.LINGER_MS_CONFIG,
            10,
            ProducerConfig.BATCH_SIZE_CONFIG,
            256 * 1024,
            ProducerConfig.COMPRESSION_TYPE_CONFIG,
            "lz4",
            ProducerConfig.ACKS_CONFIG,
            "1"));
  }

  /** Publishes {@code count} orders to {@code topic} and waits until the broker has them all. */
  public static void publish(String bootstrapServers, String topic, long count, long customers) {
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(batched(bootstrapServers))) {
      for (long i = 0; i < count; i++) {
        String orderId = "order-" + i;
        producer.send(
            new ProducerRecord<>(topic, orderId, json(orderId, customer(i, customers), i)));
      }
      producer.flush();
    }
  }
}
