package dev.matview.autoconfigure;

import dev.matview.check.StartupCheckException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a failed start-up check of the views' topics with what is wrong and how to fix it. */
final class StartupCheckFailureAnalyzer extends AbstractFailureAnalyzer<StartupCheckException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, StartupCheckException cause) {
    return new FailureAnalysis(cause.getDescription(), cause.getAction(), cause);
  }
}
