package dev.matview.autoconfigure;

import dev.matview.actuate.MatviewsEndpoint;
import dev.matview.deadletter.DeadLetterCounts;
import dev.matview.disk.StoreDiskUsage;
import dev.matview.health.DiskPressure;
import dev.matview.health.RestoreLagTracker;
import dev.matview.metrics.LookupActivity;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.ViewInstances;
import dev.matview.topology.ViewRegistry;
import org.apache.kafka.streams.Topology;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/** The actuator endpoint {@code matviews}, with the recent lookups and dead letters it shows. */
@AutoConfiguration(after = MatviewHealthAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnBean({
  ViewRegistry.class,
  LocalInstance.class,
  RestoreLagTracker.class,
  StoreDiskUsage.class,
  DiskPressure.class
})
@ConditionalOnAvailableEndpoint(MatviewsEndpoint.class)
public final class MatviewEndpointAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ViewInstances matviewViewInstances(
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
          StreamsBuilderFactoryBean factoryBean,
      ViewRegistry views,
      LocalInstance localInstance) {
    return new ViewInstances(factoryBean::getKafkaStreams, views, localInstance);
  }

  @Bean
  @ConditionalOnMissingBean
  LookupActivity matviewLookupActivity() {
    return new LookupActivity();
  }

  @Bean
  @ConditionalOnMissingBean
  DeadLetterCounts matviewDeadLetterCounts() {
    return new DeadLetterCounts();
  }

  @Bean
  @ConditionalOnMissingBean
  MatviewsEndpoint matviewsEndpoint(
      ViewRegistry views,
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
          StreamsBuilderFactoryBean factoryBean,
      ViewInstances instances,
      RestoreLagTracker tracker,
      StoreDiskUsage diskUsage,
      DiskPressure disk,
      MatviewProperties properties,
      ObjectProvider<LookupActivity> lookups,
      ObjectProvider<DeadLetterCounts> deadLetters) {
    MatviewProperties.Web web = properties.getWeb();
    return new MatviewsEndpoint(
        views,
        () -> {
          // Null until the factory bean builds the topology, once every singleton exists.
          Topology topology = factoryBean.getTopology();
          return (topology != null) ? topology.describe().toString() : null;
        },
        instances,
        tracker,
        diskUsage,
        disk,
        new MatviewsEndpoint.Activity(
            web.isEnabled() ? web.basePathWithoutTrailingSlash() : null,
            lookups.getIfAvailable(),
            deadLetters.getIfAvailable()));
  }
}
