package dev.matview.autoconfigure;

import dev.matview.changes.ChangeStreams;
import dev.matview.disk.StateDirSpace;
import dev.matview.disk.StoreDiskUsage;
import dev.matview.execution.MatviewExecutors;
import dev.matview.health.RestoreLagTracker;
import dev.matview.metrics.ChangeStreamMetrics;
import dev.matview.metrics.ExecutorMetrics;
import dev.matview.metrics.LookupActivity;
import dev.matview.metrics.LookupTimers;
import dev.matview.metrics.PeerSignatureMetrics;
import dev.matview.metrics.RocksDBMemoryMetrics;
import dev.matview.metrics.ScanCounters;
import dev.matview.metrics.ViewDiskMetrics;
import dev.matview.metrics.ViewLagMetrics;
import dev.matview.peer.PeerRequests;
import dev.matview.query.LookupMetrics;
import dev.matview.query.ScanMetrics;
import dev.matview.topology.ViewRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;

/** Matview's Micrometer meters, when a registry is present. */
@AutoConfiguration(
    after = {
      MatviewHealthAutoConfiguration.class,
      MetricsAutoConfiguration.class,
      CompositeMeterRegistryAutoConfiguration.class
    })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({MeterRegistry.class, RestoreLagTracker.class})
public final class MatviewMetricsAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ViewLagMetrics matviewViewLagMetrics(RestoreLagTracker tracker) {
    return new ViewLagMetrics(tracker);
  }

  @Bean
  @ConditionalOnMissingBean
  ChangeStreamMetrics matviewChangeStreamMetrics(ObjectProvider<ChangeStreams> streams) {
    return new ChangeStreamMetrics(streams::getIfAvailable);
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnBean(MatviewExecutors.class)
  ExecutorMetrics matviewExecutorMetrics(MatviewExecutors executors) {
    return new ExecutorMetrics(executors);
  }

  @Bean
  @ConditionalOnMissingBean
  RocksDBMemoryMetrics matviewRocksDBMemoryMetrics() {
    return new RocksDBMemoryMetrics();
  }

  @Bean
  @ConditionalOnMissingBean
  LookupMetrics matviewLookupMetrics(
      MeterRegistry registry, ObjectProvider<LookupActivity> activity) {
    return new LookupTimers(registry, activity.getIfAvailable());
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnBean(PeerRequests.class)
  PeerSignatureMetrics matviewPeerSignatureMetrics(PeerRequests requests) {
    return new PeerSignatureMetrics(requests);
  }

  @Bean
  @ConditionalOnMissingBean
  ScanMetrics matviewScanMetrics(MeterRegistry registry) {
    return new ScanCounters(registry);
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnBean({StoreDiskUsage.class, StateDirSpace.class})
  ViewDiskMetrics matviewViewDiskMetrics(
      ViewRegistry views, StoreDiskUsage usage, StateDirSpace space) {
    return new ViewDiskMetrics(views, usage, space);
  }
}
