package dev.matview.replica;

import java.io.File;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.CommitCallback;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.jspecify.annotations.Nullable;

/**
 * A real context of task 0_0 from Kafka Streams' test utilities that keeps what a store registers,
 * so that a test can restore the store and commit it as Kafka Streams would, and that tells the
 * store which record it processes.
 */
final class RecordingStoreContext implements StateStoreContext {

  private final MockProcessorContext<Object, Object> processor;

  private final StateStoreContext context;

  private @Nullable StateRestoreCallback restore;

  private @Nullable CommitCallback commit;

  /** A context whose stores keep their state under {@code stateDir}, with {@code configs} added. */
  RecordingStoreContext(Path stateDir, Map<String, Object> configs) {
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    config.putAll(configs);
    this.processor = new MockProcessorContext<>(config, new TaskId(0, 0), stateDir.toFile());
    this.context = this.processor.getStateStoreContext();
  }

  /** The store processes the record at {@code offset} of {@code partition} of {@code topic}. */
  void processing(String topic, int partition, long offset) {
    this.processor.setRecordMetadata(topic, partition, offset);
  }

  /** What the store registered to be restored with. */
  StateRestoreCallback restore() {
    StateRestoreCallback registered = this.restore;
    if (registered == null) {
      throw new IllegalStateException("No store registered");
    }
    return registered;
  }

  /** Commits the store as Kafka Streams does once it has flushed it. */
  void commit() throws Exception {
    CommitCallback registered = this.commit;
    if (registered == null) {
      throw new IllegalStateException("No store registered");
    }
    registered.onCommit();
  }

  @Override
  public void register(StateStore store, StateRestoreCallback restore) {
    register(store, restore, () -> {});
  }

  @Override
  public void register(StateStore store, StateRestoreCallback restore, CommitCallback commit) {
    this.restore = restore;
    this.commit = commit;
  }

  @Override
  public String applicationId() {
    return this.context.applicationId();
  }

  @Override
  public TaskId taskId() {
    return this.context.taskId();
  }

  @Override
  public Optional<RecordMetadata> recordMetadata() {
    return this.context.recordMetadata();
  }

  @Override
  public Serde<?> keySerde() {
    return this.context.keySerde();
  }

  @Override
  public Serde<?> valueSerde() {
    return this.context.valueSerde();
  }

  @Override
  public File stateDir() {
    return this.context.stateDir();
  }

  @Override
  public StreamsMetrics metrics() {
    return this.context.metrics();
  }

  @Override
  public Map<String, Object> appConfigs() {
    return this.context.appConfigs();
  }

  @Override
  public Map<String, Object> appConfigsWithPrefix(String prefix) {
    return this.context.appConfigsWithPrefix(prefix);
  }
}
