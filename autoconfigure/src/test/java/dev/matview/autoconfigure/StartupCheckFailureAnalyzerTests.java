package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.check.StartupCheckException;
import dev.matview.check.TopicProblem;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ApplicationContextException;

/** A failed start-up check is reported with every problem, its fix, and how to skip the checks. */
class StartupCheckFailureAnalyzerTests {

  private final StartupCheckFailureAnalyzer analyzer = new StartupCheckFailureAnalyzer();

  @Test
  void listsEveryTopicProblemWithItsFix() {
    StartupCheckException cause =
        StartupCheckException.topicProblems(
            "broker-1:9092",
            List.of(
                new TopicProblem("orders", "Source topic 'orders' is missing.", "create it"),
                new TopicProblem("app-v-changelog", "It deletes.", "compact it")));
    FailureAnalysis analysis = analyze(cause);
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
        analyze(
            StartupCheckException.brokerUnreachable("broker-1:9092", Duration.ofSeconds(30), null));
    assertThat(analysis.getDescription())
        .isEqualTo(
            "Matview could not reach Kafka at broker-1:9092 within 30000 ms to check the views'"
                + " topics before Kafka Streams starts.");
    assertThat(analysis.getAction())
        .startsWith("Check spring.kafka.bootstrap-servers")
        .contains("matview.startup-checks.timeout");
  }

  private FailureAnalysis analyze(StartupCheckException cause) {
    return this.analyzer.analyze(new ApplicationContextException("Failed to start bean", cause));
  }
}
