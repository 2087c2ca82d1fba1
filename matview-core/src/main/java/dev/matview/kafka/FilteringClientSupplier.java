package dev.matview.kafka;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * Creates Kafka Streams' clients through another supplier, from their configurations without
 * Matview's keys, so that no client reports them as supplied but not used.
 */
public final class FilteringClientSupplier implements KafkaClientSupplier {

  private final KafkaClientSupplier delegate;

  /** A supplier that creates the clients through {@code delegate}. */
  public FilteringClientSupplier(KafkaClientSupplier delegate) {
    this.delegate = delegate;
  }

  @Override
  public Admin getAdmin(Map<String, Object> config) {
    return this.delegate.getAdmin(MatviewConfigs.withoutMatviewKeys(config));
  }

  @Override
  public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
    return this.delegate.getProducer(MatviewConfigs.withoutMatviewKeys(config));
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
