package dev.matview.autoconfigure;

import dev.matview.query.KeyParser;
import dev.matview.query.LocalInstance;
import dev.matview.query.ViewQueryService;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.topology.ViewTopologyBuilder;
import dev.matview.view.ViewDefinition;
import java.time.Clock;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.EnableKafkaStreams;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.KafkaStreamsConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns every {@link ViewDefinition} bean into Kafka Streams DSL on spring-kafka's default {@link
 * StreamsBuilderFactoryBean}, with Matview's streams defaults, and offers the view query service.
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
public final class MatviewAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ViewSerdes matviewViewSerdes(ObjectProvider<JsonMapper> jsonMapper) {
    return new ViewSerdes(jsonMapper.getIfAvailable(() -> JsonMapper.builder().build()));
  }

  @Bean
  @ConditionalOnMissingBean
  ViewRegistry matviewViewRegistry(
      ListableBeanFactory beanFactory,
      ViewSerdes serdes,
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_CONFIG_BEAN_NAME)
          KafkaStreamsConfiguration streamsConfiguration) {
    String applicationId =
        streamsConfiguration.asProperties().getProperty(StreamsConfig.APPLICATION_ID_CONFIG);
    return ViewRegistry.of(ViewDefinitionBeans.collect(beanFactory), serdes, applicationId);
  }

  @Bean
  @ConditionalOnMissingBean
  ViewTopologyBuilder matviewViewTopology(StreamsBuilder streamsBuilder, ViewRegistry registry) {
    ViewTopologyBuilder topology = new ViewTopologyBuilder(streamsBuilder);
    topology.addAll(registry);
    return topology;
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewStreamsConfigurer")
  MatviewStreamsConfigurer matviewStreamsConfigurer(MatviewProperties properties) {
    return new MatviewStreamsConfigurer(properties);
  }

  @Bean
  @ConditionalOnMissingBean
  LocalInstance matviewLocalInstance() {
    return new LocalInstance();
  }

  @Bean
  @ConditionalOnMissingBean
  ViewQueryService matviewViewQueryService(
      ViewRegistry registry,
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
          StreamsBuilderFactoryBean factoryBean,
      LocalInstance localInstance,
      ViewSerdes serdes) {
    return new ViewQueryService(
        registry,
        factoryBean::getKafkaStreams,
        localInstance,
        new KeyParser(serdes.mapper()),
        Clock.systemUTC());
  }

  /** Sets application.server from the web server's actual port. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication
  @ConditionalOnClass(WebServerInitializedEvent.class)
  static class ApplicationServerConfiguration {

    @Bean
    ApplicationServerInitializer matviewApplicationServerInitializer(
        @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
            StreamsBuilderFactoryBean factoryBean,
        LocalInstance localInstance,
        MatviewProperties properties) {
      return new ApplicationServerInitializer(
          factoryBean, localInstance, properties.getAdvertisedHost());
    }
  }
}
