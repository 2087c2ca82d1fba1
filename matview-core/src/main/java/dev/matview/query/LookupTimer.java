package dev.matview.query;

import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.Replica;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.WindowsAnswer;
import dev.matview.topology.ViewRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Times each key lookup into {@link LookupMetrics}, by view, route and outcome. */
final class LookupTimer {

  private final ViewRegistry registry;

  private final LookupMetrics metrics;

  LookupTimer(ViewRegistry registry, LookupMetrics metrics) {
    this.registry = registry;
    this.metrics = metrics;
  }

  /** Runs {@code lookup} of a key in {@code viewName}, recording its time and outcome. */
  <T> CompletableFuture<Routed<T>> timed(
      String viewName, Supplier<CompletableFuture<Routed<T>>> lookup) {
    long started = System.nanoTime();
    CompletableFuture<Routed<T>> answer = started(viewName, started, lookup);
    if (answer.isDone() && !answer.isCompletedExceptionally()) {
      record(viewName, started, answer.join());
      return answer;
    }
    return answer.whenComplete(
        (routed, failure) -> {
          if (routed != null) {
            record(viewName, started, routed);
          } else {
            record(viewName, started, "none", "error");
          }
        });
  }

  /** What {@code lookup} gives; a lookup that throws is recorded as invalid or failed. */
  private <R> R started(String viewName, long started, Supplier<R> lookup) {
    try {
      return lookup.get();
    } catch (InvalidQueryException | UnknownViewException ex) {
      record(viewName, started, "none", "invalid");
      throw ex;
    } catch (RuntimeException | Error ex) {
      record(viewName, started, "none", "error");
      throw ex;
    }
  }

  private void record(String viewName, long started, Routed<?> routed) {
    record(viewName, started, routeOf(routed), outcomeOf(routed));
  }

  private void record(String viewName, long started, String route, String outcome) {
    String view = this.registry.find(viewName).isPresent() ? viewName : "unknown";
    this.metrics.record(view, route, outcome, System.nanoTime() - started);
  }

  private static String routeOf(Routed<?> routed) {
    if (routed instanceof Routed.Refused<?>) {
      return "none";
    }
    if (routed instanceof Routed.Relayed<?> relayed) {
      return "standby".equals(relayed.response().header("Matview-Replica"))
          ? "standby"
          : "forwarded";
    }
    return replica(((Routed.Local<?>) routed).answer()).role() == Replica.Role.STANDBY
        ? "standby"
        : "local";
  }

  private static String outcomeOf(Routed<?> routed) {
    if (routed instanceof Routed.Refused<?> refused) {
      return switch (refused.refusal().reason()) {
        case TIMEOUT -> "timeout";
        case FAILED -> "error";
        case BEHIND -> "behind";
        default -> "unavailable";
      };
    }
    if (routed instanceof Routed.Relayed<?> relayed) {
      int status = relayed.response().status();
      return status == 200
          ? "found"
          : status == 404 ? "absent" : status == 503 ? "unavailable" : "error";
    }
    Object answer = ((Routed.Local<?>) routed).answer();
    return answer instanceof KeyAnswer key && key.value() == null ? "absent" : "found";
  }

  private static Replica replica(Object answer) {
    return answer instanceof KeyAnswer key ? key.replica() : ((WindowsAnswer) answer).replica();
  }
}
