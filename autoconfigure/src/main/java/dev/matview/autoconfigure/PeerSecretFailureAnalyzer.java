package dev.matview.autoconfigure;

import dev.matview.peer.PeerSecretException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports that the instances could not agree on their secret, with how to fix it. */
final class PeerSecretFailureAnalyzer extends AbstractFailureAnalyzer<PeerSecretException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, PeerSecretException cause) {
    return new FailureAnalysis(cause.getDescription(), cause.getAction(), cause);
  }
}
