package dev.matview.autoconfigure;

import dev.matview.disk.StateDirSpace;
import dev.matview.disk.StoreDiskUsage;
import dev.matview.execution.MatviewExecutors;
import dev.matview.health.AvailabilityUpdater;
import dev.matview.health.DiskPressure;
import dev.matview.health.LagReports;
import dev.matview.health.MatviewHealthIndicator;
import dev.matview.health.MemoryPressure;
import dev.matview.health.RestoreLagTracker;
import dev.matview.health.StreamsHealth;
import dev.matview.health.TrackedReplicas;
import dev.matview.query.local.LocalReplicas;
import dev.matview.replica.StoreHandles;
import dev.matview.rocksdb.SharedRocksDBMemory;
import dev.matview.topology.ViewRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.util.unit.DataSize;

/**
 * Tracks the restore and standby lag of every local store partition and reports from it, Kafka
 * Streams' state and the state dir's free space the {@code matview} health component and Boot's
 * readiness and liveness.
 */
@AutoConfiguration(
    after = {MatviewAutoConfiguration.class, ApplicationAvailabilityAutoConfiguration.class})
@ConditionalOnBean(ViewRegistry.class)
public final class MatviewHealthAutoConfiguration {

  private static final Duration AVAILABILITY_PERIOD = Duration.ofSeconds(1);

  private static final Duration LAG_REPORT_PERIOD = Duration.ofSeconds(5);

  private static final Duration LAG_REPORT_GAP = Duration.ofMillis(250);

  @Bean
  @ConditionalOnMissingBean
  RestoreLagTracker matviewRestoreLagTracker() {
    return new RestoreLagTracker();
  }

  @Bean
  @ConditionalOnMissingBean
  LocalReplicas matviewLocalReplicas(RestoreLagTracker tracker) {
    return new TrackedReplicas(tracker);
  }

  @Bean
  @ConditionalOnMissingBean
  LagReports matviewLagReports(
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
          StreamsBuilderFactoryBean factoryBean,
      RestoreLagTracker tracker,
      MatviewExecutors executors) {
    return new LagReports(
        factoryBean::getKafkaStreams,
        tracker,
        LAG_REPORT_PERIOD,
        LAG_REPORT_GAP,
        executors.timer(),
        executors.polls());
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewLagTrackingContributor")
  LagTrackingContributor matviewLagTrackingContributor(
      RestoreLagTracker tracker,
      ObjectProvider<StoreHandles> handles,
      ObjectProvider<StateRestoreListener> restoreListeners,
      ObjectProvider<StandbyUpdateListener> standbyListeners) {
    return new LagTrackingContributor(
        tracker, handles.getIfAvailable(), restoreListeners, standbyListeners);
  }

  @Bean
  @ConditionalOnMissingBean
  StreamsHealth matviewStreamsHealth(
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
          StreamsBuilderFactoryBean factoryBean,
      RestoreLagTracker tracker,
      MatviewProperties properties) {
    long maxRestoreLag =
        InvalidMatviewPropertyException.requireNotNegative(
            "matview.health.max-restore-lag", properties.getHealth().getMaxRestoreLag(), "0");
    return new StreamsHealth(
        () -> {
          KafkaStreams streams = factoryBean.getKafkaStreams();
          return (streams != null) ? streams.state() : null;
        },
        tracker,
        maxRestoreLag);
  }

  @Bean
  @ConditionalOnMissingBean
  StateDirSpace matviewStateDirSpace(
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
          StreamsBuilderFactoryBean factoryBean) {
    return new StateDirSpace(Path.of(StateDir.of(factoryBean.getStreamsConfiguration())));
  }

  @Bean
  @ConditionalOnMissingBean
  StoreDiskUsage matviewStoreDiskUsage(
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
          StreamsBuilderFactoryBean factoryBean,
      ObjectProvider<StoreHandles> handles) {
    StoreHandles tables = handles.getIfAvailable();
    return new StoreDiskUsage(
        () -> {
          KafkaStreams streams = factoryBean.getKafkaStreams();
          return (streams != null) ? streams.metrics() : Map.of();
        },
        (tables != null) ? tables::tableStoreBytes : Map::of);
  }

  @Bean
  @ConditionalOnMissingBean
  DiskPressure matviewDiskPressure(StateDirSpace space, MatviewProperties properties) {
    DataSize minFreeDisk = properties.getHealth().getMinFreeDisk();
    if (minFreeDisk.isNegative()) {
      throw InvalidMatviewPropertyException.negative(
          "matview.health.min-free-disk", minFreeDisk, "1GB (0 turns the check off)");
    }
    return new DiskPressure(space, minFreeDisk.toBytes());
  }

  @Bean
  @ConditionalOnMissingBean
  MemoryPressure matviewMemoryPressure() {
    return new MemoryPressure(SharedRocksDBMemory::all);
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnBean(ApplicationAvailability.class)
  AvailabilityUpdater matviewAvailabilityUpdater(
      StreamsHealth health,
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
          StreamsBuilderFactoryBean factoryBean,
      ApplicationAvailability availability,
      ApplicationEventPublisher publisher,
      MatviewExecutors executors) {
    return new AvailabilityUpdater(
        health,
        factoryBean::isRunning,
        availability,
        publisher,
        AVAILABILITY_PERIOD,
        executors.timer(),
        executors.polls());
  }

  /** The {@code matview} health component, when Boot's health support is present. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  @ConditionalOnEnabledHealthIndicator("matview")
  static class HealthIndicatorConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "matviewHealthIndicator")
    MatviewHealthIndicator matviewHealthIndicator(
        StreamsHealth health, DiskPressure disk, MemoryPressure memory) {
      return new MatviewHealthIndicator(health, disk, memory);
    }
  }
}
