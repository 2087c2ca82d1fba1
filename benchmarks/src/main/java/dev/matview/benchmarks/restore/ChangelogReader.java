package dev.matview.benchmarks.restore;

import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.Throughput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Row 6's baseline: a plain consumer that reads a changelog topic from its start to its end, in the
 * benchmark's JVM or, through {@link #main}, in a fresh JVM of its own.
 */
public final class ChangelogReader {

  private ChangelogReader() {}

  /**
   * Reads {@code --topic} from {@code --bootstrap-servers} and writes the records a second to the
   * file {@code --out}.
   */
  public static void main(String[] args) throws IOException {
    Flags flags = Flags.parse(args);
    double perSecond =
        read(flags.text("bootstrap-servers", ""), flags.text("topic", ""), Duration.ofMinutes(10));
    Files.writeString(Path.of(flags.text("out", "")), Double.toString(perSecond));
  }

  /** Records a second of reading every partition of {@code topic} from start to end. */
  static double read(String bootstrapServers, String topic, Duration bound) {
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ConsumerConfig.GROUP_ID_CONFIG,
            "changelog-reader-" + UUID.randomUUID(),
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(info -> new TopicPartition(topic, info.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      long total = ends.values().stream().mapToLong(Long::longValue).sum();
      Throughput throughput = new Throughput();
      long started = System.nanoTime();
      long deadline = started + bound.toNanos();
      long read = 0;
      while (!throughput.complete()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("Reading " + topic + " took over " + bound);
        }
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
        read += records.count();
        boolean atEnd =
            partitions.stream()
                .allMatch(
                    partition -> consumer.position(partition) >= ends.getOrDefault(partition, 0L));
        throughput.observe(System.nanoTime(), atEnd ? total : Math.min(read, total - 1), total);
      }
      return throughput.perSecond(System.nanoTime() - started);
    }
  }
}
