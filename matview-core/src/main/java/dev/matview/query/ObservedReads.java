package dev.matview.query;

import dev.matview.observation.MatviewObservations;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.scan.ScanStream;
import dev.matview.topology.ViewRegistry;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * Observes reads ({@link MatviewObservations#LOOKUP}, {@link MatviewObservations#SCAN}) under the
 * caller's observation, each ending with its outcome: {@code local} when this instance answered
 * (from its stores, or from what it gathered of others), {@code forwarded} when the answer is
 * another instance's passed on, {@code refused}, {@code invalid} or {@code error}.
 */
final class ObservedReads {

  private static final KeyValues STREAMED = KeyValues.of(MatviewObservations.MODE, "stream");

  private static final KeyValues PAGE = KeyValues.of(MatviewObservations.MODE, "page");

  private final ViewRegistry registry;

  ObservedReads(ViewRegistry registry) {
    this.registry = registry;
  }

  /** Runs {@code read}, a lookup of {@code operation} of {@code viewName}, observed. */
  <T> CompletableFuture<Routed<T>> lookup(
      String viewName,
      String operation,
      CallerContext caller,
      Function<CallerContext, CompletableFuture<Routed<T>>> read) {
    return read(MatviewObservations.LOOKUP, viewName, operation, KeyValues.empty(), caller, read);
  }

  /** Runs {@code read}, a scan's page, observed; a view refused as this instance stops refuses. */
  <T> CompletableFuture<Routed<T>> page(
      String viewName,
      String operation,
      CallerContext caller,
      Function<CallerContext, CompletableFuture<Routed<T>>> read) {
    return read(
        MatviewObservations.SCAN,
        viewName,
        operation,
        PAGE,
        caller,
        (observed) -> {
          try {
            return read.apply(observed);
          } catch (ViewUnavailableException ex) {
            return CompletableFuture.completedFuture(new Routed.Refused<>(Refusal.of(ex)));
          }
        });
  }

  /** Runs {@code read} observed as {@code name}; its answer completes once that has stopped. */
  <T> CompletableFuture<Routed<T>> read(
      String name,
      String viewName,
      String operation,
      KeyValues more,
      CallerContext caller,
      Function<CallerContext, CompletableFuture<Routed<T>>> read) {
    Observation observation = start(name, viewName, operation, more, caller);
    if (observation.isNoop()) {
      return read.apply(caller);
    }
    CompletableFuture<Routed<T>> answer;
    try {
      answer = read.apply(caller.withObservation(observation));
    } catch (RuntimeException | Error ex) {
      failed(observation, ex);
      throw ex;
    }
    CompletableFuture<Routed<T>> observed = new CompletableFuture<>();
    answer.whenComplete(
        (routed, failure) -> {
          if (routed != null) {
            MatviewObservations.stop(observation, outcome(routed));
            observed.complete(routed);
          } else {
            failed(observation, failure);
            observed.completeExceptionally(failure);
          }
        });
    return observed;
  }

  /** Starts the streamed scan {@code start} makes, observed until it closes. */
  ScanStream scan(
      String viewName,
      String operation,
      CallerContext caller,
      Function<CallerContext, ScanStream> start) {
    Observation observation =
        start(MatviewObservations.SCAN, viewName, operation, STREAMED, caller);
    try {
      return start.apply(caller.withObservation(observation)).observedBy(observation);
    } catch (RuntimeException | Error ex) {
      failed(observation, ex);
      throw ex;
    }
  }

  /** Starts the observation {@code name} of {@code operation} of {@code viewName}. */
  Observation start(
      String name, String viewName, String operation, KeyValues more, CallerContext caller) {
    if (caller.observation().isNoop()) {
      return Observation.NOOP;
    }
    String view = this.registry.find(viewName).isPresent() ? viewName : "unknown";
    return MatviewObservations.start(caller.observation(), name, view, operation, more);
  }

  /** Stops {@code observation} of a read that threw {@code failure}. */
  static void failed(Observation observation, Throwable failure) {
    Throwable cause =
        (failure instanceof CompletionException && failure.getCause() != null)
            ? failure.getCause()
            : failure;
    MatviewObservations.stop(
        observation,
        (cause instanceof InvalidQueryException || cause instanceof UnknownViewException)
            ? "invalid"
            : "error",
        cause);
  }

  private static String outcome(Routed<?> routed) {
    if (routed instanceof Routed.Refused<?>) {
      return "refused";
    }
    return (routed instanceof Routed.Relayed<?>) ? "forwarded" : "local";
  }
}
