package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.actuate.MatviewsDescriptor;
import dev.matview.actuate.MatviewsEndpoint;
import dev.matview.deadletter.DeadLetterCounts;
import dev.matview.disk.StoreDiskUsage;
import dev.matview.health.DiskPressure;
import dev.matview.health.RestoreLagTracker;
import dev.matview.metrics.LookupActivity;
import dev.matview.query.routing.ViewInstances;
import dev.matview.topology.ViewRegistry;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Tests for {@link MatviewEndpointAutoConfiguration}. */
class MatviewEndpointAutoConfigurationTests {

  private final ApplicationContextRunner contextRunner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  MatviewAutoConfiguration.class,
                  MatviewHealthAutoConfiguration.class,
                  MatviewEndpointAutoConfiguration.class,
                  KafkaAutoConfiguration.class))
          .withUserConfiguration(ViewConfiguration.class)
          .withPropertyValues(
              "spring.kafka.streams.application-id=matview-test",
              "spring.kafka.streams.auto-startup=false",
              "spring.kafka.admin.auto-create=false");

  @Test
  void providesTheEndpointWhenItIsExposed() {
    this.contextRunner
        .withPropertyValues("management.endpoints.web.exposure.include=matviews")
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(MatviewsEndpoint.class);
              assertThat(context).hasSingleBean(ViewInstances.class);
              assertThat(context.getBean(MatviewsEndpoint.class).matviews().views())
                  .singleElement()
                  .satisfies((view) -> assertThat(view.name()).isEqualTo("sales"));
            });
  }

  @Test
  void givesTheLookupBasePathAndCountsLookupsAndDeadLetters() {
    this.contextRunner
        .withPropertyValues(
            "management.endpoints.web.exposure.include=matviews", "matview.web.base-path=/v/")
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(LookupActivity.class);
              assertThat(context).hasSingleBean(DeadLetterCounts.class);
              MatviewsDescriptor matviews = context.getBean(MatviewsEndpoint.class).matviews();
              assertThat(matviews.lookupBasePath()).isEqualTo("/v");
              assertThat(matviews.lookups()).isNotNull();
            });
  }

  @Test
  void givesNoLookupBasePathWhenTheLookupEndpointsAreOff() {
    this.contextRunner
        .withPropertyValues(
            "management.endpoints.web.exposure.include=matviews", "matview.web.enabled=false")
        .run(
            (context) ->
                assertThat(context.getBean(MatviewsEndpoint.class).matviews().lookupBasePath())
                    .isNull());
  }

  @Test
  void backsOffWhenTheEndpointIsNotExposed() {
    this.contextRunner.run(
        (context) -> assertThat(context).doesNotHaveBean(MatviewsEndpoint.class));
  }

  @Test
  void backsOffWhenTheEndpointIsTurnedOff() {
    this.contextRunner
        .withPropertyValues(
            "management.endpoints.web.exposure.include=matviews",
            "management.endpoint.matviews.access=NONE")
        .run((context) -> assertThat(context).doesNotHaveBean(MatviewsEndpoint.class));
  }

  @Test
  void backsOffWithoutTheActuator() {
    this.contextRunner
        .withPropertyValues("management.endpoints.web.exposure.include=matviews")
        .withClassLoader(new FilteredClassLoader(Endpoint.class))
        .run((context) -> assertThat(context).doesNotHaveBean(MatviewsEndpoint.class));
  }

  @Test
  void backsOffWithoutViews() {
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                MatviewAutoConfiguration.class,
                MatviewHealthAutoConfiguration.class,
                MatviewEndpointAutoConfiguration.class,
                KafkaAutoConfiguration.class))
        .withPropertyValues(
            "spring.kafka.streams.application-id=matview-test",
            "management.endpoints.web.exposure.include=matviews")
        .run((context) -> assertThat(context).doesNotHaveBean(MatviewsEndpoint.class));
  }

  @Test
  void backsOffWhenTheUserDefinesTheEndpoint() {
    this.contextRunner
        .withPropertyValues("management.endpoints.web.exposure.include=matviews")
        .withUserConfiguration(UserEndpointConfiguration.class)
        .run(
            (context) ->
                assertThat(context)
                    .getBean(MatviewsEndpoint.class)
                    .isSameAs(context.getBean("userMatviewsEndpoint")));
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
  static class UserEndpointConfiguration {

    @Bean
    MatviewsEndpoint userMatviewsEndpoint(
        ViewRegistry views,
        ViewInstances instances,
        RestoreLagTracker tracker,
        StoreDiskUsage usage,
        DiskPressure disk) {
      return new MatviewsEndpoint(
          views, () -> null, instances, tracker, usage, disk, MatviewsEndpoint.Activity.NONE);
    }
  }
}
