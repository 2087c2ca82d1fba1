package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.metrics.ExecutorMetrics;
import dev.matview.metrics.PeerSignatureMetrics;
import dev.matview.metrics.RocksDBMemoryMetrics;
import dev.matview.metrics.ViewDiskMetrics;
import dev.matview.metrics.ViewLagMetrics;
import dev.matview.peer.PeerRequests;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Tests for {@link MatviewMetricsAutoConfiguration}. */
class MatviewMetricsAutoConfigurationTests {

  private final ApplicationContextRunner contextRunner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  MatviewAutoConfiguration.class,
                  MatviewHealthAutoConfiguration.class,
                  MatviewMetricsAutoConfiguration.class,
                  KafkaAutoConfiguration.class))
          .withUserConfiguration(ViewConfiguration.class)
          .withPropertyValues(
              "spring.kafka.streams.application-id=matview-test",
              "spring.kafka.streams.auto-startup=false");

  @Test
  void bindsTheLagMemoryAndDiskMetricsWhenThereIsARegistry() {
    this.contextRunner
        .withUserConfiguration(RegistryConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ViewLagMetrics.class);
              assertThat(context).hasSingleBean(RocksDBMemoryMetrics.class);
              assertThat(context).hasSingleBean(ViewDiskMetrics.class);
            });
  }

  @Test
  void countsTheChecksOfPeerSignaturesByOutcome() {
    this.contextRunner
        .withUserConfiguration(RegistryConfiguration.class)
        .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class))
        .withPropertyValues("matview.peers.secret=" + "s".repeat(32))
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(PeerSignatureMetrics.class);
              PeerRequests requests = context.getBean(PeerRequests.class);
              requests.check("GET", "/views", "v2.1.none.AA", (name) -> null);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertThat(
                      registry
                          .get(PeerSignatureMetrics.CHECKS)
                          .tag("outcome", "malformed")
                          .functionCounter()
                          .count())
                  .isEqualTo(1.0);
              assertThat(
                      registry
                          .get(PeerSignatureMetrics.CHECKS)
                          .tag("outcome", "mac-mismatch")
                          .functionCounter()
                          .count())
                  .isZero();
            });
  }

  @Test
  void showsEachOfMatviewsExecutorsByNameAndThePeersIoThreads() {
    this.contextRunner
        .withUserConfiguration(RegistryConfiguration.class)
        .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class))
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ExecutorMetrics.class);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              for (String name :
                  List.of(
                      "matview-timer",
                      "matview-worker",
                      "matview-polls",
                      "matview-change-fanout")) {
                assertThat(registry.find("executor.pool.max").tag("name", name).gauge())
                    .as("the executor %s", name)
                    .isNotNull();
                assertThat(registry.find("executor.queued").tag("name", name).gauge())
                    .as("the queue of %s", name)
                    .isNotNull();
              }
              assertThat(
                      registry
                          .get("executor.pool.max")
                          .tag("name", "matview-timer")
                          .gauge()
                          .value())
                  .isEqualTo(1.0);
              assertThat(registry.get(ExecutorMetrics.PEER_IO_THREADS).gauge().value()).isZero();
            });
  }

  @Test
  void backsOffWithoutARegistry() {
    this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(ViewLagMetrics.class));
  }

  @Test
  void backsOffWithoutMicrometer() {
    this.contextRunner
        .withUserConfiguration(RegistryConfiguration.class)
        .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
        .run((context) -> assertThat(context).doesNotHaveBean(ViewLagMetrics.class));
  }

  record Sale(String shop) {}

  @Configuration(proxyBeanMethods = false)
  static class ViewConfiguration {

    @MaterializedView("sales")
    ViewDefinition<String, Sale, Long> sales() {
      return Views.from("sales", Sale.class).count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class RegistryConfiguration {

    @Bean
    SimpleMeterRegistry registry() {
      return new SimpleMeterRegistry();
    }
  }
}
