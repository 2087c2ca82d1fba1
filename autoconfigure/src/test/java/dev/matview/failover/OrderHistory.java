package dev.matview.failover;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * Deterministic orders, keyed by customer, and what the views must answer for them.
 *
 * @param orders the orders, in publishing order
 * @param perCustomer the count per customer
 * @param perMinute the count per customer and one-minute window
 */
record OrderHistory(
    List<Order> orders, Map<String, Long> perCustomer, Map<Window, Long> perMinute) {

  static final Duration WINDOW = Duration.ofMinutes(1);

  /**
   * {@code count} orders of {@code customers} customers, at random times in [first, first +
   * spread).
   */
  static OrderHistory generate(int count, int customers, Instant first, Duration spread) {
    Random random = new Random(42);
    List<Order> orders = new ArrayList<>();
    Map<String, Long> perCustomer = new TreeMap<>();
    Map<Window, Long> perMinute = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      Order order =
          new Order(
              "customer-" + (1 + random.nextInt(customers)),
              first.plusMillis(random.nextInt((int) spread.toMillis())));
      orders.add(order);
      perCustomer.merge(order.customer(), 1L, Long::sum);
      perMinute.merge(new Window(order.customer(), windowStart(order.at())), 1L, Long::sum);
    }
    return new OrderHistory(orders, perCustomer, perMinute);
  }

  /** Publishes every order to {@code topic}, keyed by its customer, and waits for the acks. */
  void publish(String brokers, String topic) {
    JsonMapper mapper = JsonMapper.builder().build();
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(brokers),
            new StringSerializer(),
            new StringSerializer())) {
      for (Order order : this.orders) {
        producer.send(
            new ProducerRecord<>(topic, order.customer(), mapper.writeValueAsString(order)));
      }
    }
  }

  /** The windows of {@code customer}, oldest first, each as {@code start=count}. */
  List<String> windowsOf(String customer) {
    return this.perMinute.entrySet().stream()
        .filter(entry -> entry.getKey().key().equals(customer))
        .map(entry -> entry.getKey().start() + "=" + entry.getValue())
        .toList();
  }

  /** The customers of each partition of a topic with {@code partitions} partitions. */
  Map<Integer, List<String>> customersByPartition(int partitions) {
    return this.perCustomer.keySet().stream()
        .collect(
            Collectors.groupingBy(
                customer -> partition(customer, partitions), TreeMap::new, Collectors.toList()));
  }

  /** The partition the producer's default partitioner, and so Kafka Streams, gives {@code key}. */
  static int partition(String key, int partitions) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  private static Instant windowStart(Instant at) {
    long size = WINDOW.toMillis();
    return Instant.ofEpochMilli(at.toEpochMilli() / size * size);
  }

  /** One order: its customer is the record key, its time the event time. */
  record Order(String customer, Instant at) {}

  /** One window of one customer. */
  record Window(String key, Instant start) implements Comparable<Window> {

    @Override
    public int compareTo(Window other) {
      return Comparator.comparing(Window::key).thenComparing(Window::start).compare(this, other);
    }
  }
}
