package dev.matview.web;

import dev.matview.position.ViewPosition;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import jakarta.servlet.http.HttpServletRequest;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * Answers a read found here as a 200 with the position of the replicas it read, another instance's
 * answer as it came, and a refusal as {@link Refusals} tells it.
 */
final class PositionedAnswers {

  private final Consistency consistency;

  PositionedAnswers(Consistency consistency) {
    this.consistency = consistency;
  }

  /**
   * The caller of a read of {@code view}, with the bound it asks for, records in {@code
   * recordParameter}.
   */
  CallerContext caller(HttpServletRequest request, String view, String recordParameter) {
    return Callers.from(request, view)
        .withBound(this.consistency.bounds().bound(request, view, recordParameter));
  }

  /** The answer of {@code read} as {@code type} with {@code body} of what it found, or none yet. */
  <T> @Nullable ResponseEntity<?> answer(
      HttpServletRequest request,
      String view,
      CallerContext caller,
      Supplier<CompletableFuture<Routed<T>>> read,
      MediaType type,
      Function<T, ?> body) {
    return this.consistency.answer(
        request,
        view,
        caller.bound(),
        read,
        (routed) ->
            Refusals.respond(
                routed,
                (found) ->
                    this.consistency
                        .withPosition(ResponseEntity.ok(), positionOf(routed))
                        .contentType(type)
                        .body(body.apply(found))));
  }

  /** The position of an answer read here, or {@code null}. */
  static @Nullable ViewPosition positionOf(Routed<?> routed) {
    return (routed instanceof Routed.Local<?> local) ? local.position() : null;
  }
}
