package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.topology.InvalidViewException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** An invalid view is reported at start-up with its problem and its fix. */
class InvalidViewFailureAnalyzerTests {

  @Test
  void describesTheProblemAndTheFixOfTheNamedView() {
    InvalidViewException cause =
        new InvalidViewException("orders", "it has no source topic", "name the topic");
    FailureAnalysis analysis =
        new InvalidViewFailureAnalyzer()
            .analyze(new BeanCreationException("matviewViewRegistry", "failed", cause));
    assertThat(analysis.getDescription())
        .isEqualTo("Materialized view 'orders' is invalid: it has no source topic.");
    assertThat(analysis.getAction())
        .isEqualTo("Fix the definition of view 'orders': name the topic.");
    assertThat(analysis.getCause()).isSameAs(cause);
  }
}
