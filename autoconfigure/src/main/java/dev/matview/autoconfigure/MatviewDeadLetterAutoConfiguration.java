package dev.matview.autoconfigure;

import dev.matview.deadletter.DeadLetterListener;
import dev.matview.deadletter.DeadLetterPublisher;
import dev.matview.deadletter.DeadLetters;
import dev.matview.deadletter.ViewLocator;
import dev.matview.metrics.DeadLetterMetrics;
import dev.matview.metrics.DroppedRecordMetrics;
import dev.matview.topology.ViewRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.KafkaStreamsConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/** Sends records views cannot use to the dead-letter topic, which it creates, and counts them. */
@AutoConfiguration(after = MatviewAutoConfiguration.class)
@ConditionalOnClass({KafkaStreams.class, StreamsBuilderFactoryBean.class})
@ConditionalOnBean(ViewRegistry.class)
@EnableConfigurationProperties(MatviewProperties.class)
public final class MatviewDeadLetterAutoConfiguration {

  private static final String ENABLED = "matview.dead-letter.enabled";

  /** Smallest dead-letter size: Matview's own headers take up to about 13 KB. */
  private static final long MIN_MAX_SIZE = 32 * 1024;

  @Bean
  @ConditionalOnMissingBean(name = "matviewDeadLetterStreamsConfigurer")
  DeadLetterStreamsConfigurer matviewDeadLetterStreamsConfigurer(
      MatviewProperties properties,
      ViewRegistry registry,
      ObjectProvider<DeadLetterPublisher> publisher) {
    if (!properties.getDeadLetter().isEnabled()) {
      return DeadLetterStreamsConfigurer.failing();
    }
    return DeadLetterStreamsConfigurer.publishing(
        new DeadLetters(ViewLocator.of(registry), publisher.getObject()));
  }

  /** The dead-letter topic and its publisher. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBooleanProperty(name = ENABLED, matchIfMissing = true)
  static class PublishingConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DeadLetterPublisher matviewDeadLetterPublisher(
        MatviewProperties properties,
        ViewRegistry registry,
        @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_CONFIG_BEAN_NAME)
            KafkaStreamsConfiguration streams,
        ObjectProvider<DeadLetterListener> listeners) {
      String topic = DeadLetterTopic.name(properties.getDeadLetter(), registry);
      String clientId = registry.applicationId() + "-dead-letters";
      List<DeadLetterListener> all = listeners.orderedStream().toList();
      return new DeadLetterPublisher(
          topic,
          () -> producer(streams, clientId),
          letter -> all.forEach(listener -> listener.published(letter)),
          maxBytes(properties.getDeadLetter(), streams, clientId));
    }

    private static int maxBytes(
        MatviewProperties.DeadLetter properties,
        KafkaStreamsConfiguration streams,
        String clientId) {
      long configured = properties.getMaxSize().toBytes();
      if (configured < MIN_MAX_SIZE || configured > Integer.MAX_VALUE) {
        throw InvalidMatviewPropertyException.outside(
            "matview.dead-letter.max-size",
            properties.getMaxSize(),
            "between 32KB (room for Matview's headers) and 2GB",
            "1MB");
      }
      return (int) Math.min(configured, ProducerLimits.maxRequestSize(streams, clientId));
    }

    @Bean
    @ConditionalOnMissingBean(name = "matviewDeadLetterTopic")
    NewTopic matviewDeadLetterTopic(
        DeadLetterPublisher publisher,
        @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_CONFIG_BEAN_NAME)
            KafkaStreamsConfiguration streams) {
      return new NewTopic(
          publisher.topic(), Optional.empty(), DeadLetterTopic.replicationFactor(streams));
    }

    private static Producer<byte[], byte[]> producer(
        KafkaStreamsConfiguration streams, String clientId) {
      Map<String, Object> configs =
          new StreamsConfig(streams.asProperties()).getProducerConfigs(clientId);
      configs.put(ProducerConfig.LINGER_MS_CONFIG, 0);
      return new KafkaProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer());
    }
  }

  /** Counts every record a view left out with Micrometer, dead letter or not. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterBinder.class)
  static class DroppedRecordsConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DroppedRecordMetrics matviewDroppedRecordMetrics() {
      return new DroppedRecordMetrics();
    }
  }

  /** Counts dead letters with Micrometer. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterBinder.class)
  @ConditionalOnBooleanProperty(name = ENABLED, matchIfMissing = true)
  static class MetricsConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DeadLetterMetrics matviewDeadLetterMetrics() {
      return new DeadLetterMetrics();
    }
  }
}
