package dev.matview.benchmarks.restore;

import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.Throughput;
import dev.matview.benchmarks.app.HandWrittenStreamsConfig;
import dev.matview.benchmarks.kafka.StreamsProgress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Row 6's third baseline: Kafka Streams alone restoring a table of the changelog's records into an
 * empty RocksDB store, without Matview. The table reads the changelog as its source topic, which
 * Kafka Streams then restores from instead of a changelog of its own; the group's offsets are
 * committed at the topic's end first, so that every record is restored, none processed.
 *
 * <p>Flags: {@code --bootstrap-servers}, {@code --topic}, {@code --application-id}, {@code
 * --state-dir}, {@code --out} (the file the records a second are written to).
 */
public final class HandWrittenRestore {

  private static final Duration BOUND = Duration.ofMinutes(10);

  private HandWrittenRestore() {}

  public static void main(String[] args) throws Exception {
    Flags flags = Flags.parse(args);
    String bootstrapServers = flags.text("bootstrap-servers", "");
    String topic = flags.text("topic", "");
    String applicationId = flags.text("application-id", "bench-restore-hand");
    Map<TopicPartition, Long> ends = commitEndOffsets(bootstrapServers, applicationId, topic);
    long records = ends.values().stream().mapToLong(Long::longValue).sum();
    if (records == 0) {
      throw new IllegalArgumentException(topic + " holds no records to restore");
    }
    StreamsBuilder builder = new StreamsBuilder();
    builder.table(
        topic,
        Consumed.with(Serdes.Bytes(), Serdes.Bytes()),
        Materialized.<Bytes, Bytes, KeyValueStore<Bytes, byte[]>>as("restored")
            .withCachingDisabled());
    Properties config = HandWrittenStreamsConfig.of(flags, applicationId);
    config.put(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, StreamsConfig.OPTIMIZE);
    Progress progress =
        new Progress(records, (int) ends.values().stream().filter(end -> end > 0).count());
    try (KafkaStreams streams = new KafkaStreams(builder.build(config), config)) {
      streams.setGlobalStateRestoreListener(progress);
      streams.setStateListener(
          (now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
              progress.running();
            }
          });
      streams.start();
      long deadline = System.nanoTime() + BOUND.toNanos();
      synchronized (progress) {
        while (!progress.throughput.complete()) {
          long left = deadline - System.nanoTime();
          if (left <= 0 || streams.state() == KafkaStreams.State.ERROR) {
            throw new IllegalStateException(
                "Kafka Streams restored " + progress.restored + " of " + records + " records");
          }
          TimeUnit.NANOSECONDS.timedWait(progress, Math.min(left, 100_000_000L));
        }
      }
      Files.writeString(
          Path.of(flags.text("out", "")),
          Double.toString(progress.throughput.perSecond(progress.elapsedNanos())));
      streams.close(Duration.ofSeconds(30));
    }
  }

  /**
   * Commits the group's offsets at the end of every partition of {@code topic}, and returns them.
   */
  private static Map<TopicPartition, Long> commitEndOffsets(
      String bootstrapServers, String groupId, String topic) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      Map<TopicPartition, Long> ends = StreamsProgress.endOffsetsByPartition(admin, topic);
      Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
      ends.forEach((partition, end) -> committed.put(partition, new OffsetAndMetadata(end)));
      admin.alterConsumerGroupOffsets(groupId, committed).all().get(30, TimeUnit.SECONDS);
      return ends;
    }
  }

  /**
   * Counts the records restored, as Matview's health shows a restore's progress, until every
   * partition's restore has ended and Kafka Streams runs.
   */
  private static final class Progress implements StateRestoreListener {

    private final long records;

    private final int partitions;

    private int ended;

    private boolean running;

    private final Throughput throughput = new Throughput();

    private long restored;

    private final long started = System.nanoTime();

    Progress(long records, int partitions) {
      this.records = records;
      this.partitions = partitions;
    }

    long elapsedNanos() {
      return System.nanoTime() - this.started;
    }

    @Override
    public void onRestoreStart(
        TopicPartition partition, String storeName, long startingOffset, long endingOffset) {}

    @Override
    public synchronized void onBatchRestored(
        TopicPartition partition, String storeName, long batchEndOffset, long numRestored) {
      this.restored += numRestored;
      this.throughput.observe(
          System.nanoTime(), Math.min(this.restored, this.records - 1), this.records);
    }

    @Override
    public synchronized void onRestoreEnd(
        TopicPartition partition, String storeName, long totalRestored) {
      this.ended++;
      completeWhenServing();
    }

    /** Takes in that Kafka Streams runs, as Matview's health turns UP only once it does. */
    synchronized void running() {
      this.running = true;
      completeWhenServing();
    }

    private void completeWhenServing() {
      if (this.running && this.ended == this.partitions) {
        this.throughput.observe(System.nanoTime(), this.records, this.records);
        notifyAll();
      }
    }
  }
}
