package dev.matview.faults;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;

/**
 * Publishes orders at a steady rate with an idempotent {@code acks=all} producer and remembers each
 * order the broker acknowledged.
 */
final class OrderLoad implements AutoCloseable {

  static final String TOPIC = "orders";

  private final KafkaProducer<String, String> producer;

  private final List<String> customers;

  private final int ratePerSecond;

  private final long total;

  private final EventClock eventClock;

  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(runnable -> new Thread(runnable, "order-load"));

  private final AtomicLong sequence = new AtomicLong();

  private final Map<String, Order> acknowledged = new ConcurrentHashMap<>();

  private final List<String> failures = new CopyOnWriteArrayList<>();

  private final Map<String, Instant> firstAcknowledged = new ConcurrentHashMap<>();

  /** A load of {@code total} orders at {@code ratePerSecond} over {@code customers}. */
  OrderLoad(
      String bootstrapServers,
      List<String> customers,
      int ratePerSecond,
      long total,
      EventClock eventClock) {
    this.customers = List.copyOf(customers);
    this.ratePerSecond = ratePerSecond;
    this.total = total;
    this.eventClock = eventClock;
    this.producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.LINGER_MS_CONFIG,
                5,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                (int) Duration.ofMinutes(5).toMillis(),
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                Duration.ofMinutes(5).toMillis()),
            new StringSerializer(),
            new StringSerializer());
  }

  /** Whether every order of the load has been handed to the producer. */
  boolean published() {
    return this.sequence.get() >= this.total;
  }

  /** Starts publishing. */
  void start() {
    this.scheduler.scheduleAtFixedRate(
        this::publishOne, 0, 1_000_000 / this.ratePerSecond, TimeUnit.MICROSECONDS);
  }

  /** Stops publishing and waits until every order sent is acknowledged or failed. */
  void stop() throws InterruptedException {
    this.scheduler.shutdown();
    if (!this.scheduler.awaitTermination(5, TimeUnit.MINUTES)) {
      throw new IllegalStateException("The order load did not stop within 5 minutes");
    }
    this.producer.flush();
  }

  /** The orders the broker acknowledged, by order id. */
  Map<String, Order> acknowledged() {
    return Map.copyOf(this.acknowledged);
  }

  /** When the broker acknowledged the first order of {@code customer}, or null if it has not. */
  @Nullable Instant firstAcknowledged(String customer) {
    return this.firstAcknowledged.get(customer);
  }

  /** Why sends failed, one entry per failed order. */
  List<String> failures() {
    return List.copyOf(this.failures);
  }

  @Override
  public void close() {
    this.scheduler.shutdownNow();
    this.producer.close(Duration.ofSeconds(30));
  }

  private void publishOne() {
    if (published()) {
      return;
    }
    ThreadLocalRandom random = ThreadLocalRandom.current();
    Order order =
        new Order(
            "order-" + this.sequence.incrementAndGet(),
            this.customers.get(random.nextInt(this.customers.size())),
            BigDecimal.valueOf(random.nextLong(100, 100_000), 2),
            this.eventClock.now());
    this.producer.send(
        new ProducerRecord<>(TOPIC, order.orderId(), order.toJson()),
        (metadata, exception) -> {
          if (exception == null) {
            this.acknowledged.put(order.orderId(), order);
            this.firstAcknowledged.putIfAbsent(order.customerId(), Instant.now());
          } else {
            this.failures.add(order.orderId() + ": " + exception);
          }
        });
  }
}
