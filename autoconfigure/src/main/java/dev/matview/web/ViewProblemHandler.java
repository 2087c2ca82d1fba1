package dev.matview.web;

import dev.matview.query.InvalidQueryException;
import dev.matview.query.PeerProblemException;
import dev.matview.query.UnknownViewException;
import dev.matview.query.ViewTimeoutException;
import dev.matview.query.ViewUnavailableException;
import java.net.URI;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Maps lookup failures to RFC 9457 problem details with the view, key and partition concerned. */
@RestControllerAdvice(assignableTypes = {ViewController.class, ViewScanController.class})
public class ViewProblemHandler {

  private static final Log logger = LogFactory.getLog(ViewProblemHandler.class);

  private static final String TYPE_BASE = "https://matview.dev/problems/";

  @ExceptionHandler
  ResponseEntity<ProblemDetail> unknownView(UnknownViewException ex) {
    ProblemDetail problem = problem(HttpStatus.NOT_FOUND, "unknown-view", "Unknown view", ex);
    problem.setProperty("view", ex.getView());
    return respond(problem);
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> keyNotFound(KeyNotFoundException ex) {
    ProblemDetail problem = problem(HttpStatus.NOT_FOUND, "key-not-found", "Key not found", ex);
    problem.setProperty("view", ex.getView());
    problem.setProperty("key", ex.getKey());
    return respond(problem);
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> invalidQuery(InvalidQueryException ex) {
    ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "invalid-request", "Bad request", ex);
    problem.setProperty("view", ex.getView());
    problem.setProperty("parameter", ex.getParameter());
    return respond(problem);
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> unavailable(ViewUnavailableException ex) {
    ProblemDetail problem =
        problem(HttpStatus.SERVICE_UNAVAILABLE, "view-unavailable", "View unavailable", ex);
    long retryAfterSeconds = Math.max(1, ex.getRetryAfter().toSeconds());
    problem.setProperty("view", ex.getView());
    if (ex.getKey() != null) {
      problem.setProperty("key", ex.getKey());
    }
    if (ex.getPartition() != null) {
      problem.setProperty("partition", ex.getPartition());
    }
    problem.setProperty("retryAfterSeconds", retryAfterSeconds);
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
        .header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds))
        .body(problem);
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> timeout(ViewTimeoutException ex) {
    ProblemDetail problem =
        problem(HttpStatus.GATEWAY_TIMEOUT, "owner-timeout", "Owner did not answer in time", ex);
    problem.setProperty("view", ex.getView());
    problem.setProperty("partition", ex.getPartition());
    return respond(problem);
  }

  @ExceptionHandler
  ResponseEntity<byte[]> relayed(PeerProblemException ex) {
    return Relay.of(ex.getResponse());
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> unreadableBody(HttpMessageNotReadableException ex) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.BAD_REQUEST,
            "The request body is not the JSON expected, like {\"keys\": [\"a\", \"b\"]}");
    problem.setType(URI.create(TYPE_BASE + "invalid-request"));
    problem.setTitle("Bad request");
    return respond(problem);
  }

  private static ProblemDetail problem(
      HttpStatus status, String type, String title, RuntimeException ex) {
    if (logger.isDebugEnabled()) {
      logger.debug(title + ": " + ex.getMessage());
    }
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, ex.getMessage());
    problem.setType(URI.create(TYPE_BASE + type));
    problem.setTitle(title);
    return problem;
  }

  private static ResponseEntity<ProblemDetail> respond(ProblemDetail problem) {
    return ResponseEntity.status(problem.getStatus()).body(problem);
  }
}
