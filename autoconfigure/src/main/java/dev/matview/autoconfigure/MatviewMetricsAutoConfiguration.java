package dev.matview.autoconfigure;

import dev.matview.health.RestoreLagTracker;
import dev.matview.metrics.LookupTimers;
import dev.matview.metrics.RocksDBMemoryMetrics;
import dev.matview.metrics.ViewLagMetrics;
import dev.matview.query.LookupMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Gauges each local store partition's restore or standby lag and RocksDB's shared memory against
 * its bound, when a Micrometer registry is present.
 */
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
  RocksDBMemoryMetrics matviewRocksDBMemoryMetrics() {
    return new RocksDBMemoryMetrics();
  }

  @Bean
  @ConditionalOnMissingBean
  LookupMetrics matviewLookupMetrics(MeterRegistry registry) {
    return new LookupTimers(registry);
  }
}
