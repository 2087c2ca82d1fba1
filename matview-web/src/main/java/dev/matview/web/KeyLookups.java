package dev.matview.web;

import dev.matview.position.ViewPosition;
import dev.matview.query.ViewQueryService;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.Replica;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import jakarta.servlet.http.HttpServletRequest;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/** Answers a lookup of one key as HTTP, with the headers that say which replica answered. */
final class KeyLookups {

  private final ViewQueryService queryService;

  private final Consistency consistency;

  KeyLookups(ViewQueryService queryService, Consistency consistency) {
    this.queryService = queryService;
    this.consistency = consistency;
  }

  /** The answer to a lookup of {@code key}, or {@code null} while the request waits. */
  @Nullable ResponseEntity<?> answer(
      HttpServletRequest request, String view, String key, CallerContext caller) {
    return this.consistency.whenAnswered(request, caller.bound(), answerLater(view, key, caller));
  }

  /** The answer to a lookup of {@code key}, once there, without a thread waiting for it. */
  CompletableFuture<ResponseEntity<?>> answerLater(String view, String key, CallerContext caller) {
    return this.consistency
        .readLater(view, caller.bound(), () -> this.queryService.get(view, key, caller))
        .thenApply((routed) -> respond(view, routed));
  }

  private ResponseEntity<?> respond(String view, Routed<KeyAnswer> routed) {
    if (routed instanceof Routed.Relayed<KeyAnswer> relayed) {
      return Relay.of(relayed.response());
    }
    if (routed instanceof Routed.Refused<KeyAnswer> refused) {
      return Refusals.problem(refused.refusal());
    }
    Routed.Local<KeyAnswer> local = (Routed.Local<KeyAnswer>) routed;
    KeyAnswer answer = local.answer();
    if (answer.value() == null) {
      return answered(HttpStatus.NOT_FOUND, answer.replica(), local.position())
          .contentType(MediaType.APPLICATION_PROBLEM_JSON)
          .body(Problems.keyNotFound(view, answer.key()));
    }
    return answered(HttpStatus.OK, answer.replica(), local.position())
        .body(new ViewController.KeyValue(answer.key(), answer.value()));
  }

  /** An answer with {@code status}, the replica's headers and the position it had reached. */
  ResponseEntity.BodyBuilder answered(
      HttpStatus status, Replica replica, @Nullable ViewPosition position) {
    return this.consistency.withPosition(withReplica(status, replica), position);
  }

  /** An answer with {@code status} and the headers that say which replica answered. */
  static ResponseEntity.BodyBuilder withReplica(HttpStatus status, Replica replica) {
    return ResponseEntity.status(status)
        .header(ViewController.SERVED_BY_HEADER, replica.servedBy())
        .header(ViewController.REPLICA_HEADER, replica.role().label())
        .header(ViewController.OFFSET_LAG_HEADER, Long.toString(replica.offsetLag()));
  }
}
