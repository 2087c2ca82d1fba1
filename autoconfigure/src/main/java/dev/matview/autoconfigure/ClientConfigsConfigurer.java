package dev.matview.autoconfigure;

import dev.matview.kafka.FilteringClientSupplier;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;
import org.springframework.core.Ordered;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * Has Kafka Streams create its clients without Matview's keys in their configurations: the factory
 * bean's client supplier, Kafka's default or the one another configurer set, is wrapped in a {@link
 * FilteringClientSupplier}. Kafka Streams' own configuration keeps the keys for the RocksDB config
 * setter and the exception handlers.
 *
 * <p>Runs after every other configurer, so that it wraps the client supplier they set.
 */
final class ClientConfigsConfigurer implements StreamsBuilderFactoryBeanConfigurer {

  @Override
  public void configure(StreamsBuilderFactoryBean factoryBean) {
    KafkaClientSupplier current = FactoryBeanSettings.clientSupplier(factoryBean);
    if (!(current instanceof FilteringClientSupplier)) {
      factoryBean.setClientSupplier(
          new FilteringClientSupplier(
              (current != null) ? current : new DefaultKafkaClientSupplier()));
    }
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }
}
