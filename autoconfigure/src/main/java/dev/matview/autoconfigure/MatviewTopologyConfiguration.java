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
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.KafkaStreamsConfiguration;
import org.springframework.kafka.config.KafkaStreamsCustomizer;
import tools.jackson.databind.json.JsonMapper;

/** The view definitions, their serdes and the topology built from them, with Matview's settings. */
@Configuration(proxyBeanMethods = false)
final class MatviewTopologyConfiguration {

  /** The most significant digits a decimal may have: the longest number Jackson reads. */
  private static final int MAX_DECIMAL_PRECISION = 1000;

  @Bean
  @ConditionalOnMissingBean
  ViewSerdes matviewViewSerdes(
      ObjectProvider<JsonMapper> jsonMapper, MatviewProperties properties) {
    return new ViewSerdes(
        jsonMapper.getIfAvailable(() -> JsonMapper.builder().build()),
        decimalBounds(properties.getRecords()));
  }

  /** The decimals the views accept, as {@code matview.records.max-decimal-*} set them. */
  static DecimalBounds decimalBounds(MatviewProperties.Records records) {
    int precision = records.getMaxDecimalPrecision();
    int scale = records.getMaxDecimalScale();
    if (precision < 1 || precision > MAX_DECIMAL_PRECISION) {
      throw InvalidMatviewPropertyException.outside(
          "matview.records.max-decimal-precision",
          precision,
          "between 1 and " + MAX_DECIMAL_PRECISION + " (the longest number Jackson reads)",
          "38");
    }
    if (scale < 0 || scale > precision) {
      throw InvalidMatviewPropertyException.outside(
          "matview.records.max-decimal-scale",
          scale,
          "between 0 and matview.records.max-decimal-precision (" + precision + ")",
          String.valueOf(Math.min(18, precision)));
    }
    return new DecimalBounds(precision, scale);
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
    return ViewDefinitionBeans.registry(beanFactory, serdes, applicationId);
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
    Duration maxAhead =
        InvalidMatviewPropertyException.requireNotNegative(
            "matview.records.max-event-time-ahead",
            properties.getRecords().getMaxEventTimeAhead(),
            "1m");
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
