package dev.matview.kafka;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * Creates Kafka Streams' clients through another supplier, from their configurations without
 * Matview's keys, so that no client reports them as supplied but not used.
 */
public final class FilteringClientSupplier implements KafkaClientSupplier {

  /**
   * The key of Kafka Streams' configuration whose value, a {@link Runnable}, each stream thread's
   * transactional producer runs after a commit.
   */
  public static final String TRANSACTION_COMMITS_CONFIG = "matview.transaction-commits";

  private final KafkaClientSupplier delegate;

  /** A supplier that creates the clients through {@code delegate}. */
  public FilteringClientSupplier(KafkaClientSupplier delegate) {
    this.delegate = delegate;
  }

  @Override
  public Admin getAdmin(Map<String, Object> config) {
    return this.delegate.getAdmin(MatviewConfigs.withoutMatviewKeys(config));
  }

  /**
   * The producer, which under exactly-once, when the configuration carries {@value
   * #TRANSACTION_COMMITS_CONFIG}, runs that task on its thread after each transaction it commits.
   */
  @Override
  public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
    Producer<byte[], byte[]> producer =
        this.delegate.getProducer(MatviewConfigs.withoutMatviewKeys(config));
    return (config.get(TRANSACTION_COMMITS_CONFIG) instanceof Runnable committed
            && config.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG) != null)
        ? new CommitSignallingProducer(producer, committed)
        : producer;
  }

  @Override
  public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
    return this.delegate.getConsumer(MatviewConfigs.withoutMatviewKeys(config));
  }

  @Override
  public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
    return this.delegate.getRestoreConsumer(MatviewConfigs.withoutMatviewKeys(config));
  }

  @Override
  public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
    return this.delegate.getGlobalConsumer(MatviewConfigs.withoutMatviewKeys(config));
  }
}
