package dev.matview.autoconfigure;

import dev.matview.topology.InvalidViewException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports an invalid view definition at start-up with what is wrong and how to fix it. */
final class InvalidViewFailureAnalyzer extends AbstractFailureAnalyzer<InvalidViewException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, InvalidViewException cause) {
    return new FailureAnalysis(
        "Materialized view '" + cause.getView() + "' is invalid: " + cause.getProblem() + ".",
        "Fix the definition of view '" + cause.getView() + "': " + cause.getFix() + ".",
        cause);
  }
}
