package dev.matview.web;

import dev.matview.query.ViewQueryService;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.Replica;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * Answers a lookup of one key of a table view as HTTP: its value, its absence, or why no replica
 * could answer, with the headers that say which replica answered.
 */
final class KeyLookups {

  private final ViewQueryService queryService;

  KeyLookups(ViewQueryService queryService) {
    this.queryService = queryService;
  }

  /** The answer to a lookup of {@code key} in {@code view} by {@code caller}. */
  ResponseEntity<?> answer(String view, String key, CallerContext caller) {
    Routed<KeyAnswer> routed = this.queryService.get(view, key, caller);
    if (routed instanceof Routed.Relayed<KeyAnswer> relayed) {
      return Relay.of(relayed.response());
    }
    if (routed instanceof Routed.Refused<KeyAnswer> refused) {
      return Refusals.problem(refused.refusal());
    }
    KeyAnswer answer = ((Routed.Local<KeyAnswer>) routed).answer();
    if (answer.value() == null) {
      return withReplica(HttpStatus.NOT_FOUND, answer.replica())
          .contentType(MediaType.APPLICATION_PROBLEM_JSON)
          .body(ViewProblemHandler.keyNotFound(view, answer.key()));
    }
    return withReplica(HttpStatus.OK, answer.replica())
        .body(new ViewController.KeyValue(answer.key(), answer.value()));
  }

  /** An answer with {@code status} and the headers that say which replica answered. */
  static ResponseEntity.BodyBuilder withReplica(HttpStatus status, Replica replica) {
    return ResponseEntity.status(status)
        .header(ViewController.SERVED_BY_HEADER, replica.servedBy())
        .header(ViewController.REPLICA_HEADER, replica.role().label())
        .header(ViewController.OFFSET_LAG_HEADER, Long.toString(replica.offsetLag()));
  }
}
