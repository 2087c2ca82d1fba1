package dev.matview.benchmarks.changes;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * The baseline of row 11's latency: a plain Kafka consumer of the orders topic, with Kafka's
 * default fetch settings as Kafka Streams has them, on a thread of its own, timing each order from
 * its intended send time to the poll that returned it.
 */
final class PlainConsumer implements AutoCloseable {

  private static final Duration POLL = Duration.ofMillis(100);

  private final JsonMapper json = JsonMapper.builder().build();

  private final KafkaConsumer<String, String> consumer;

  private final SendClock clock;

  private final Latencies latencies;

  private final Thread thread;

  private volatile boolean stopped;

  /**
   * A consumer of every partition of {@code topic} from its end now, recording into {@code
   * latencies} with the times of {@code clock}; it reads once {@link #start()} is called.
   */
  PlainConsumer(String bootstrapServers, String topic, SendClock clock, Latencies latencies) {
    this.clock = clock;
    this.latencies = latencies;
    this.consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false));
    List<TopicPartition> partitions =
        this.consumer.partitionsFor(topic).stream()
            .map(info -> new TopicPartition(topic, info.partition()))
            .toList();
    this.consumer.assign(partitions);
    this.consumer.seekToEnd(partitions);
    partitions.forEach(this.consumer::position);
    this.thread = new Thread(this::read, "plain-consumer");
    this.thread.setDaemon(true);
  }

  /** Starts reading. */
  void start() {
    this.thread.start();
  }

  private void read() {
    while (!this.stopped) {
      ConsumerRecords<String, String> orders = this.consumer.poll(POLL);
      long received = System.nanoTime();
      for (ConsumerRecord<String, String> order : orders) {
        long sent = this.clock.nanos(this.json.readTree(order.value()).path("ts"));
        this.latencies.arrived(sent, received);
      }
    }
  }

  /** Stops reading and closes the consumer. */
  @Override
  public void close() throws InterruptedException {
    this.stopped = true;
    this.thread.join(Duration.ofSeconds(10).toMillis());
    this.consumer.close();
  }
}
