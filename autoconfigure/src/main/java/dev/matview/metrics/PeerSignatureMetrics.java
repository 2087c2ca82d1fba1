package dev.matview.metrics;

import dev.matview.peer.PeerRequests;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;

/**
 * Counts the peer signatures this instance accepted and why it refused the others, by {@code
 * outcome}.
 */
public final class PeerSignatureMetrics implements MeterBinder {

  /** The counter's name. */
  public static final String CHECKS = "matview.peer.signature.checks";

  private final PeerRequests requests;

  /** Counters of the checks that {@code requests} makes. */
  public PeerSignatureMetrics(PeerRequests requests) {
    this.requests = requests;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    for (PeerRequests.Outcome outcome : PeerRequests.Outcome.values()) {
      FunctionCounter.builder(CHECKS, this.requests, (requests) -> requests.checks(outcome))
          .description("Checks of the signatures of requests between instances, by outcome")
          .tag("outcome", outcome.name().toLowerCase(Locale.ROOT).replace('_', '-'))
          .register(registry);
    }
  }
}
