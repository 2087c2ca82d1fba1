package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

import dev.matview.topology.InvalidViewException;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewBuilder;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewDefinitionException;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

/**
 * A {@code @MaterializedView} used wrongly fails start-up with a report that names the bean method,
 * what is wrong and what the method must do instead, where it would otherwise declare no view
 * without a word, or fail on a stack trace.
 */
@ExtendWith(OutputCaptureExtension.class)
class MaterializedViewMisuseTests {

  private final ApplicationContextRunner contextRunner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  MatviewDeclarationsAutoConfiguration.class,
                  MatviewAutoConfiguration.class,
                  KafkaAutoConfiguration.class))
          .withPropertyValues(
              "spring.kafka.streams.application-id=matview-test",
              "spring.kafka.streams.auto-startup=false");

  @Test
  void failsWhenTheOnlyViewMethodReturnsAnotherTypeNamingTheMethodAndTheTypeItMustReturn() {
    this.contextRunner
        .withUserConfiguration(WrongTypeConfiguration.class)
        .run(
            (context) -> {
              FailureAnalysis analysis = analysis(context, InvalidViewException.class);
              assertThat(analysis.getDescription())
                  .isEqualTo(
                      "Materialized view 'orders' (bean 'orders' of method"
                          + " MaterializedViewMisuseTests.WrongTypeConfiguration.orders()) is"
                          + " invalid: its @MaterializedView method returns java.lang.String, not"
                          + " the ViewDefinition a view needs, so it would declare no view.");
              assertThat(analysis.getAction())
                  .isEqualTo(
                      "Fix the definition of view 'orders': return the ViewDefinition that"
                          + " Views.from(...) builds, ended by an aggregation such as count(),"
                          + " latest() or aggregate(...), and declare the method as returning"
                          + " ViewDefinition<K, V, A>.");
            });
  }

  @Test
  void failsWhenAViewMethodReturnsItsBuilderWithoutAnAggregation() {
    this.contextRunner
        .withUserConfiguration(ForgottenAggregationConfiguration.class)
        .run(
            (context) ->
                assertThat(analysis(context, InvalidViewException.class).getDescription())
                    .contains(
                        "method MaterializedViewMisuseTests.ForgottenAggregationConfiguration")
                    .contains("returns dev.matview.view.ViewBuilder, not the ViewDefinition"));
  }

  @Test
  void failsWhenAViewMethodReturnsNull() {
    this.contextRunner
        .withUserConfiguration(NullViewConfiguration.class)
        .run(
            (context) ->
                assertThat(analysis(context, InvalidViewException.class).getDescription())
                    .contains("Materialized view 'nothing' (bean 'nothing' of method")
                    .contains("its @MaterializedView method returned null"));
  }

  @Test
  void failsWhenAViewMethodDefinesAWindowThatCannotBeNamingTheMethod() {
    this.contextRunner
        .withUserConfiguration(RefusedWindowConfiguration.class)
        .run(
            (context) -> {
              FailureAnalysis analysis = analysis(context, ViewDefinitionException.class);
              assertThat(analysis.getDescription())
                  .isEqualTo(
                      "The view that bean 'perMinute' of method"
                          + " MaterializedViewMisuseTests.RefusedWindowConfiguration.perMinute()"
                          + " declares is invalid: a hopping window's advance (PT2M) exceeds its"
                          + " size (PT1M).");
              assertThat(analysis.getAction()).startsWith("Give ViewWindow.hopping(size, advance)");
            });
  }

  @Test
  void failsWhenAViewMethodPassesNullForAType() {
    this.contextRunner
        .withUserConfiguration(NullKeyTypeConfiguration.class)
        .run(
            (context) -> {
              FailureAnalysis analysis = analysis(context, ViewDefinitionException.class);
              assertThat(analysis.getDescription())
                  .contains(
                      "of method MaterializedViewMisuseTests.NullKeyTypeConfiguration.byShop()")
                  .endsWith("groupBy(keyType, keySelector) was given no keyType.");
              assertThat(analysis.getAction()).isEqualTo("Pass a keyType; it must not be null.");
            });
  }

  @Test
  void printsTheReportWhenTheApplicationFailsToStart(CapturedOutput output) {
    SpringApplication application = new SpringApplication(WrongTypeApplication.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    assertThatException()
        .isThrownBy(() -> application.run("--spring.main.banner-mode=off"))
        .isInstanceOf(InvalidViewException.class);
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains(
            "Materialized view 'orders' (bean 'orders' of method"
                + " MaterializedViewMisuseTests.WrongTypeConfiguration.orders()) is invalid")
        .contains("declare the method as returning ViewDefinition<K, V, A>.");
  }

  private static FailureAnalysis analysis(
      AssertableApplicationContext context, Class<? extends Throwable> failure) {
    assertThat(context).hasFailed();
    assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
        .isInstanceOf(failure);
    FailureAnalysis analysis =
        new MatviewFailureAnalyzer(null).analyze(context.getStartupFailure());
    assertThat(analysis).isNotNull();
    return analysis;
  }

  record Sale(String shop) {}

  @Configuration(proxyBeanMethods = false)
  static class WrongTypeConfiguration {

    @MaterializedView("orders")
    String orders() {
      return "orders";
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration(MatviewDeclarationsAutoConfiguration.class)
  static class WrongTypeApplication extends WrongTypeConfiguration {}

  @Configuration(proxyBeanMethods = false)
  static class ForgottenAggregationConfiguration {

    @MaterializedView("sales")
    ViewDefinition<String, Sale, Long> sales() {
      return Views.from("sales", Sale.class).count();
    }

    @MaterializedView("sales-per-shop")
    ViewBuilder<String, Sale> salesPerShop() {
      return Views.from("sales", Sale.class).groupBy(String.class, Sale::shop);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class NullViewConfiguration {

    @MaterializedView("sales")
    ViewDefinition<String, Sale, Long> sales() {
      return Views.from("sales", Sale.class).count();
    }

    @MaterializedView
    @Nullable ViewDefinition<String, Sale, Long> nothing() {
      return null;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class RefusedWindowConfiguration {

    @MaterializedView("per-minute")
    ViewDefinition<String, Sale, Long> perMinute() {
      return Views.from("sales", Sale.class)
          .windowedBy(ViewWindow.hopping(Duration.ofMinutes(1), Duration.ofMinutes(2)))
          .count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class NullKeyTypeConfiguration {

    @MaterializedView("by-shop")
    @SuppressWarnings("NullAway")
    ViewDefinition<String, Sale, Long> byShop() {
      return Views.from("sales", Sale.class).groupBy(null, Sale::shop).count();
    }
  }
}
