package dev.matview.autoconfigure;

import dev.matview.view.ViewDefinition;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.annotation.EnableKafkaStreams;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns every {@link ViewDefinition} bean into Kafka Streams DSL on spring-kafka's default {@link
 * StreamsBuilderFactoryBean}, through the configurations it imports, one per part.
 */
@AutoConfiguration(before = KafkaAutoConfiguration.class)
@ConditionalOnClass({
  KafkaStreams.class,
  StreamsBuilder.class,
  StreamsBuilderFactoryBean.class,
  JsonMapper.class
})
@ConditionalOnBean(ViewDefinition.class)
@EnableKafkaStreams
@EnableConfigurationProperties(MatviewProperties.class)
@Import({
  MatviewExecutionConfiguration.class,
  MatviewTopologyConfiguration.class,
  MatviewRoutingConfiguration.class,
  MatviewPeersConfiguration.class,
  MatviewQueryConfiguration.class,
  MatviewStartupConfiguration.class
})
public final class MatviewAutoConfiguration {

  /** Looks the default factory bean up when called, so that a lifecycle does not depend on it. */
  static Supplier<StreamsBuilderFactoryBean> factoryBeanLookup(BeanFactory beanFactory) {
    return () ->
        beanFactory.getBean(
            BeanFactory.FACTORY_BEAN_PREFIX
                + KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME,
            StreamsBuilderFactoryBean.class);
  }
}
