package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.check.StartupCheckException;
import dev.matview.check.TopicProblem;
import dev.matview.topology.InvalidViewException;
import dev.matview.view.ViewDefinitionException;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanInstantiationException;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ApplicationContextException;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Every failure that stops start-up for a cause the user can fix is reported by the one analyzer
 * with what is wrong, where, and the fix; any other failure is left to Spring Boot's analyzers.
 */
class MatviewFailureAnalyzerTests {

  private final MatviewFailureAnalyzer analyzer = new MatviewFailureAnalyzer(null);

  @Test
  void namesTheViewItsBeanMethodTheProblemAndTheFix() {
    InvalidViewException cause =
        new InvalidViewException("orders", "it has no source topic", "name the topic")
            .declaredBy("bean 'orders' of method OrderViews.orders()");
    FailureAnalysis analysis =
        this.analyzer.analyze(new BeanCreationException("matviewViewRegistry", "failed", cause));
    assertThat(analysis.getDescription())
        .isEqualTo(
            "Materialized view 'orders' (bean 'orders' of method OrderViews.orders()) is invalid:"
                + " it has no source topic.");
    assertThat(analysis.getAction())
        .isEqualTo("Fix the definition of view 'orders': name the topic.");
    assertThat(analysis.getCause()).isSameAs(cause);
  }

  @Test
  void namesTheBeanMethodWhoseViewDefinitionWasRefused() throws Exception {
    ViewDefinitionException cause = refusedDefinition();
    FailureAnalysis analysis =
        this.analyzer.analyze(
            new BeanCreationException(
                "perMinute",
                "failed",
                new BeanInstantiationException(
                    getClass().getDeclaredMethod("refusedDefinition"), "threw", cause)));
    assertThat(analysis.getDescription())
        .isEqualTo(
            "The view that bean 'perMinute' of method"
                + " MatviewFailureAnalyzerTests.refusedDefinition() declares is invalid: a hopping"
                + " window's advance (PT2M) exceeds its size (PT1M).");
    assertThat(analysis.getAction())
        .isEqualTo(
            "Give ViewWindow.hopping(size, advance) an advance of at most its size, or use"
                + " ViewWindow.tumbling(size) for windows that follow each other.");
  }

  @Test
  void namesThePropertyWhereItsValueComesFromAndTheFix() {
    StandardEnvironment environment = new StandardEnvironment();
    environment
        .getPropertySources()
        .addFirst(new MapPropertySource("settings", Map.of("matview.changes.max-streams", "0")));
    InvalidMatviewPropertyException cause =
        InvalidMatviewPropertyException.atLeast("matview.changes.max-streams", 0, "1", "1000");
    FailureAnalysis analysis =
        new MatviewFailureAnalyzer(environment)
            .analyze(new BeanCreationException("matviewChangeStreams", "failed", cause));
    assertThat(analysis.getDescription())
        .isEqualTo(
            "Invalid value '0' for configuration property 'matview.changes.max-streams': it must"
                + " be at least 1."
                + System.lineSeparator()
                + "The value comes from \"matview.changes.max-streams\" from property source"
                + " \"settings\".");
    assertThat(analysis.getAction())
        .isEqualTo("Set matview.changes.max-streams to 1 or more, for example 1000.");
    assertThat(cause)
        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
        .hasMessageContaining("matview.changes.max-streams");
  }

  @Test
  void listsEveryTopicProblemWithItsFix() {
    StartupCheckException cause =
        StartupCheckException.topicProblems(
            "broker-1:9092",
            List.of(
                new TopicProblem("orders", "Source topic 'orders' is missing.", "create it"),
                new TopicProblem("app-v-changelog", "It deletes.", "compact it")));
    FailureAnalysis analysis = analyzeStartFailure(cause);
    assertThat(analysis.getDescription())
        .isEqualTo(
            "Matview found 2 problems with the views' topics on broker-1:9092:"
                + System.lineSeparator()
                + " - Source topic 'orders' is missing. Fix: create it"
                + System.lineSeparator()
                + " - It deletes. Fix: compact it");
    assertThat(analysis.getAction())
        .isEqualTo(
            "Fix the topics as shown and start again, or set matview.startup-checks.enabled=false"
                + " to skip these checks.");
    assertThat(analysis.getCause()).isSameAs(cause);
  }

  @Test
  void namesTheBootstrapServersPropertyWhenTheBrokerDoesNotAnswer() {
    FailureAnalysis analysis =
        analyzeStartFailure(
            StartupCheckException.brokerUnreachable("broker-1:9092", Duration.ofSeconds(30), null));
    assertThat(analysis.getDescription())
        .isEqualTo(
            "Matview could not reach Kafka at broker-1:9092 within 30000 ms to check the views'"
                + " topics before Kafka Streams starts.");
    assertThat(analysis.getAction())
        .startsWith("Check spring.kafka.bootstrap-servers")
        .contains("matview.startup-checks.timeout");
  }

  @Test
  void leavesFailuresThatAreNotMatviewsToSpringBoot() {
    assertThat(this.analyzer.analyze(new IllegalStateException("something else"))).isNull();
    assertThat(
            this.analyzer.analyze(
                new InvalidConfigurationPropertyValueException(
                    "spring.kafka.streams.application-id", "x", "reason")))
        .isNull();
  }

  private FailureAnalysis analyzeStartFailure(Throwable cause) {
    return this.analyzer.analyze(new ApplicationContextException("Failed to start bean", cause));
  }

  private static ViewDefinitionException refusedDefinition() {
    try {
      Views.from("orders", String.class)
          .windowedBy(ViewWindow.hopping(Duration.ofMinutes(1), Duration.ofMinutes(2)))
          .count();
      throw new AssertionError("the window was accepted");
    } catch (ViewDefinitionException ex) {
      return ex;
    }
  }
}
