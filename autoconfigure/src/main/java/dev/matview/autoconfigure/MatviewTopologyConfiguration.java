package dev.matview.autoconfigure;

import dev.matview.replica.StoreHandles;
import dev.matview.topology.EventTimeBounds;
import dev.matview.topology.RecordDrops;
import dev.matview.topology.RecordRules;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.topology.ViewTopologyBuilder;
import dev.matview.view.DecimalBounds;
import java.time.Clock;
import java.time.Duration;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.KafkaStreamsConfiguration;
import org.springframework.kafka.config.KafkaStreamsCustomizer;
import tools.jackson.databind.json.JsonMapper;

/**
 * The view definitions, their serdes and the Kafka Streams topology built from them, with Matview's
 * settings for Kafka Streams and its clients.
 */
@Configuration(proxyBeanMethods = false)
final class MatviewTopologyConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ViewSerdes matviewViewSerdes(
      ObjectProvider<JsonMapper> jsonMapper, MatviewProperties properties) {
    MatviewProperties.Records records = properties.getRecords();
    DecimalBounds bounds;
    try {
      bounds = new DecimalBounds(records.getMaxDecimalPrecision(), records.getMaxDecimalScale());
    } catch (IllegalArgumentException ex) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.records.max-decimal-precision",
          records.getMaxDecimalPrecision() + " (scale " + records.getMaxDecimalScale() + ")",
          "Precision must be 1 to 1000 and matview.records.max-decimal-scale 0 to the precision,"
              + " for example 38 and 18: "
              + ex.getMessage());
    }
    return new ViewSerdes(jsonMapper.getIfAvailable(() -> JsonMapper.builder().build()), bounds);
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
  ViewTopologyBuilder matviewViewTopology(
      StreamsBuilder streamsBuilder,
      ViewRegistry registry,
      MatviewProperties properties,
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_CONFIG_BEAN_NAME)
          KafkaStreamsConfiguration streamsConfiguration,
      ObjectProvider<RecordDrops> drops,
      StoreHandles handles) {
    Duration maxAhead = properties.getRecords().getMaxEventTimeAhead();
    if (maxAhead.isNegative()) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.records.max-event-time-ahead",
          maxAhead,
          "It must not be negative, for example 1m.");
    }
    RecordRules rules =
        new RecordRules(
            new EventTimeBounds(maxAhead, Clock.systemUTC()),
            properties.getDeadLetter().isLateRecords(),
            drops.getIfAvailable(() -> RecordDrops.NONE),
            ProducerLimits.changelogRecordLimit(streamsConfiguration, registry.applicationId()));
    ViewTopologyBuilder topology = new ViewTopologyBuilder(streamsBuilder, rules, handles);
    topology.addAll(registry);
    return topology;
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewStreamsConfigurer")
  MatviewStreamsConfigurer matviewStreamsConfigurer(MatviewProperties properties) {
    return new MatviewStreamsConfigurer(properties);
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewKafkaStreamsConfigurer")
  MatviewKafkaStreamsConfigurer matviewKafkaStreamsConfigurer(
      PeerSecretEstablisher secret,
      ObjectProvider<StreamsListenersContributor> contributors,
      ObjectProvider<KafkaStreamsCustomizer> customizers) {
    return new MatviewKafkaStreamsConfigurer(
        new MatviewKafkaStreamsCustomizer(secret, contributors, customizers));
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewPositionVectorConfigurer")
  PositionVectorConfigurer matviewPositionVectorConfigurer() {
    return new PositionVectorConfigurer();
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewMembershipConfigurer")
  MembershipConfigurer matviewMembershipConfigurer(MatviewProperties properties) {
    return new MembershipConfigurer(properties);
  }
}
