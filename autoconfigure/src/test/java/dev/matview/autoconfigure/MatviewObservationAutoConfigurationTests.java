package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import dev.matview.web.ViewController;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.test.simple.SimpleTracer;
import jakarta.servlet.Filter;
import java.util.Comparator;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcObservationAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

/** Tests for {@link MatviewObservationAutoConfiguration}. */
class MatviewObservationAutoConfigurationTests {

  private static final String FILTER = "matviewRequestObservationFilter";

  private final WebApplicationContextRunner contextRunner =
      new WebApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  MatviewAutoConfiguration.class,
                  MatviewWebAutoConfiguration.class,
                  MatviewObservationAutoConfiguration.class,
                  KafkaAutoConfiguration.class,
                  DispatcherServletAutoConfiguration.class,
                  WebMvcAutoConfiguration.class,
                  HttpMessageConvertersAutoConfiguration.class,
                  JacksonAutoConfiguration.class))
          .withPropertyValues(
              "spring.kafka.streams.application-id=matview-test",
              "spring.kafka.streams.auto-startup=false")
          .withUserConfiguration(ViewConfiguration.class);

  @Test
  void keepsEachRequestsObservationRightAfterSpringsServerObservationFilterOpensIt() {
    this.contextRunner
        .withConfiguration(
            AutoConfigurations.of(
                ObservationAutoConfiguration.class, WebMvcObservationAutoConfiguration.class))
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ObservationRegistry.class).hasBean(FILTER);
              int order = context.getBean(FILTER, FilterRegistrationBean.class).getOrder();
              assertThat(order)
                  .isGreaterThan(Ordered.HIGHEST_PRECEDENCE + 1)
                  .isLessThan(Ordered.HIGHEST_PRECEDENCE + 10);
            });
  }

  @Test
  void observesALookupAsAChildOfItsHttpRequestsObservationWhenTheApplicationTraces() {
    this.contextRunner
        .withConfiguration(
            AutoConfigurations.of(
                ObservationAutoConfiguration.class, WebMvcObservationAutoConfiguration.class))
        .withBean(TestObservationRegistry.class, TestObservationRegistry::create)
        .withBean(SimpleTracer.class, SimpleTracer::new)
        .run(
            (context) -> {
              TestObservationRegistryAssert.assertThat(lookedUpIn(context))
                  .hasObservationWithNameEqualTo("matview.lookup")
                  .that()
                  .hasLowCardinalityKeyValue("view", "sales-per-shop")
                  .hasLowCardinalityKeyValue("operation", "key")
                  .hasParentObservationContextMatching(
                      (parent) -> parent.getName().equals("http.server.requests"));
            });
  }

  @Test
  void leavesLookupsToTheirTimerWithoutATracer() {
    this.contextRunner
        .withConfiguration(
            AutoConfigurations.of(
                ObservationAutoConfiguration.class, WebMvcObservationAutoConfiguration.class))
        .withBean(TestObservationRegistry.class, TestObservationRegistry::create)
        .withBean(Tracer.class, () -> Tracer.NOOP)
        .run(
            (context) -> {
              TestObservationRegistryAssert.assertThat(lookedUpIn(context))
                  .hasNumberOfObservationsWithNameEqualTo("matview.lookup", 0)
                  .hasObservationWithNameEqualTo("http.server.requests");
            });
  }

  @Test
  void servesLookupsAndObservesNothingWithoutAnObservationRegistry() {
    this.contextRunner.run(
        (context) -> {
          assertThat(context).doesNotHaveBean(ObservationRegistry.class);
          assertThat(context).doesNotHaveBean(FILTER);
          assertThat(context).hasSingleBean(ViewController.class);
          MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
          mvc.perform(get("/views"))
              .andExpect(status().isOk())
              .andExpect(jsonPath("$[0].name").value("sales-per-shop"));
        });
  }

  @Test
  void backsOffWhenTheLookupEndpointsAreOff() {
    this.contextRunner
        .withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class))
        .withPropertyValues("matview.web.enabled=false")
        .run((context) -> assertThat(context).doesNotHaveBean(FILTER));
  }

  /** The observations of {@code context} once a key of it was looked up over its filters. */
  private static TestObservationRegistry lookedUpIn(ApplicationContext context) throws Exception {
    MockMvcBuilders.webAppContextSetup((WebApplicationContext) context)
        .addFilters(filtersInOrder(context))
        .build()
        .perform(get("/views/sales-per-shop/keys/shop-1"));
    return context.getBean(TestObservationRegistry.class);
  }

  /** The servlet filters of {@code context}'s registrations, in their order. */
  private static Filter[] filtersInOrder(ApplicationContext context) {
    return context.getBeansOfType(FilterRegistrationBean.class).values().stream()
        .sorted(Comparator.comparingInt(FilterRegistrationBean::getOrder))
        .map(FilterRegistrationBean::getFilter)
        .toArray(Filter[]::new);
  }

  @Configuration(proxyBeanMethods = false)
  static class ViewConfiguration {

    @MaterializedView("sales-per-shop")
    ViewDefinition<String, Sale, Long> salesPerShop() {
      return Views.from("sales", Sale.class).groupBy(String.class, Sale::shop).count();
    }
  }

  record Sale(String shop) {}
}
