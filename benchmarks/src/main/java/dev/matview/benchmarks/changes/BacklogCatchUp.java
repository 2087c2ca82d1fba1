package dev.matview.benchmarks.changes;

import dev.matview.benchmarks.kafka.OrdersProducer;
import dev.matview.benchmarks.process.AppInstance;
import dev.matview.processes.http.HttpProbe;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Row 11's stream-thread rate: a backlog of orders published at once to the followed keys (the
 * {@code i}th to {@code keys[i mod keys]}, so every round updates the same keys and the store does
 * not grow), timed from its first send until the view has applied the last order of each partition,
 * which a lookup with {@code after=} that partition's last offset says the moment it happens (it
 * waits on the instance, woken as the store partition applies records). The instance applies orders
 * far slower than one producer publishes them, so the time is the stream thread's.
 */
final class BacklogCatchUp {

  private final String bootstrapServers;

  private final String topic;

  private final String view;

  /** Backlogs of {@code topic} on {@code bootstrapServers}, read back from {@code view}. */
  BacklogCatchUp(String bootstrapServers, String topic, String view) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.view = view;
  }

  /**
   * Publishes {@code count} orders to {@code keys} and returns the orders a second {@code app}
   * applied them at, from the first send to the last order of every partition in the view.
   */
  double run(AppInstance app, List<String> keys, long count) {
    Map<Integer, Last> lasts = new ConcurrentHashMap<>();
    AtomicReference<Exception> failure = new AtomicReference<>();
    long started = System.nanoTime();
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(OrdersProducer.batched(this.bootstrapServers))) {
      for (long i = 0; i < count; i++) {
        String key = keys.get((int) (i % keys.size()));
        producer.send(
            new ProducerRecord<>(
                this.topic, key, OrdersProducer.json(key, OrdersProducer.customer(i, 100), i)),
            (written, error) -> {
              if (error != null) {
                failure.compareAndSet(null, error);
                return;
              }
              lasts.merge(
                  written.partition(),
                  new Last(written.offset(), key),
                  (one, other) -> (one.offset() >= other.offset()) ? one : other);
            });
      }
      producer.flush();
    }
    if (failure.get() != null) {
      throw new IllegalStateException(
          "The backlog of " + count + " orders could not be sent to " + this.topic, failure.get());
    }
    HttpProbe http = app.http().withTimeout(Duration.ofSeconds(30));
    long deadline = System.nanoTime() + Duration.ofMinutes(5).plusMillis(count).toNanos();
    for (Map.Entry<Integer, Last> last : lasts.entrySet()) {
      String after = this.topic + ":" + last.getKey() + ":" + last.getValue().offset();
      while (!applied(http, last.getValue().key(), after)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              app.name() + " did not apply a backlog of " + count + " orders up to " + after);
        }
        LockSupport.parkNanos(Duration.ofMillis(1).toNanos());
      }
    }
    return count / ((System.nanoTime() - started) / 1e9);
  }

  /** Whether the view holds {@code after}, asked with a lookup that waits for it up to 2 s. */
  private boolean applied(HttpProbe http, String key, String after) {
    HttpProbe.Answer answer = http.get("/views/" + this.view + "/keys/" + key + "?after=" + after);
    if (answer.status() != 200 && answer.status() != 503) {
      throw new IllegalStateException(
          "Waiting for the backlog in " + this.view + ": " + answer.describe());
    }
    return answer.status() == 200;
  }

  /**
   * The last order of a partition in a backlog.
   *
   * @param offset its offset
   * @param key its key
   */
  private record Last(long offset, String key) {}
}
