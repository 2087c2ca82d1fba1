package dev.matview.benchmarks.changes;

import dev.matview.benchmarks.kafka.OrderSender;
import dev.matview.benchmarks.load.FixedRateSchedule;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Sends orders at a fixed rate, the {@code i}th to the record key {@code keys[i mod keys]}, each at
 * once (no linger) and each carrying in {@code ts}, and as its record timestamp, the time it was
 * meant to be sent, so that a late send counts against its latency (coordinated omission
 * corrected).
 */
final class FixedRateOrders {

  private final String bootstrapServers;

  private final String topic;

  private final SendClock clock;

  /** Orders to {@code topic} on {@code bootstrapServers}, their times written by {@code clock}. */
  FixedRateOrders(String bootstrapServers, String topic, SendClock clock) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.clock = clock;
  }

  /**
   * Sends {@code count} orders to {@code keys} on {@code schedule}, waits until the broker has them
   * all, and returns how many sends failed.
   */
  int send(List<String> keys, FixedRateSchedule schedule, long count) {
    AtomicInteger failed = new AtomicInteger();
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config())) {
      for (long i = 0; i < count; i++) {
        long intended = schedule.intendedNanos(i);
        for (long wait = intended - System.nanoTime(); wait > 0; ) {
          LockSupport.parkNanos(wait);
          wait = intended - System.nanoTime();
        }
        String key = keys.get((int) (i % keys.size()));
        Instant at = this.clock.instant(intended);
        producer.send(
            new ProducerRecord<>(this.topic, null, at.toEpochMilli(), key, json(key, i, at)),
            (written, failure) -> {
              if (failure != null) {
                failed.incrementAndGet();
              }
            });
      }
      producer.flush();
    }
    return failed.get();
  }

  private Map<String, Object> config() {
    Map<String, Object> config = new HashMap<>(OrderSender.unbatched(this.bootstrapServers));
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Duration.ofSeconds(30).toMillis());
    return config;
  }

  private static String json(String orderId, long index, Instant ts) {
    return "{\"orderId\":\""
        + orderId
        + "\",\"customerId\":\"customer-"
        + (index % 100)
        + "\",\"amount\":"
        + (1 + index % 100)
        + ".5,\"ts\":\""
        + ts
        + "\"}";
  }
}
