package dev.matview.autoconfigure;

import dev.matview.startup.UnsupportedSpringBootException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports an application that runs on a Spring Boot Matview was not built for, and the fix. */
final class UnsupportedSpringBootFailureAnalyzer
    extends AbstractFailureAnalyzer<UnsupportedSpringBootException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedSpringBootException cause) {
    return new FailureAnalysis(cause.getDescription(), cause.getAction(), cause);
  }
}
