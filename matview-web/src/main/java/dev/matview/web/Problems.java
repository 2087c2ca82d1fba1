package dev.matview.web;

import dev.matview.peer.ProblemTypes;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;

/** The RFC 9457 problem details of Matview's HTTP surface, with Matview's types and titles. */
final class Problems {

  private static final Log logger = LogFactory.getLog(Problems.class);

  private Problems() {}

  /** The problem detail of a lookup that found no value for {@code key} in {@code view}. */
  static ProblemDetail keyNotFound(String view, Object key) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.NOT_FOUND, "View '" + view + "' has no value for key '" + key + "'");
    problem.setType(ProblemTypes.KEY_NOT_FOUND);
    problem.setTitle("Key not found");
    problem.setProperty("view", view);
    problem.setProperty("key", key);
    return problem;
  }

  /** The 500 of a lookup that failed for {@code ex}, which is logged here at ERROR. */
  static ResponseEntity<ProblemDetail> internalError(Exception ex) {
    logger.error("A lookup failed unexpectedly", ex);
    return respond(
        typed(
            HttpStatus.INTERNAL_SERVER_ERROR,
            "internal-error",
            "Internal error",
            "The lookup failed unexpectedly; the failure is logged by the instance that answered"));
  }

  /** The problem detail of one of Spring MVC's own failures, with its headers. */
  static ResponseEntity<ProblemDetail> fromErrorResponse(ErrorResponse errorResponse) {
    return ResponseEntity.status(errorResponse.getStatusCode())
        .headers(errorResponse.getHeaders())
        .body(problemOf(errorResponse));
  }

  /** The problem detail of one of Spring MVC's own failures, always with a detail. */
  static ProblemDetail problemOf(ErrorResponse errorResponse) {
    ProblemDetail problem = errorResponse.getBody();
    if (problem.getDetail() == null) {
      HttpStatus status = HttpStatus.resolve(problem.getStatus());
      problem.setDetail(status != null ? status.getReasonPhrase() : "Error");
    }
    if (logger.isDebugEnabled()) {
      logger.debug("Bad request: " + problem.getStatus() + " " + problem.getDetail());
    }
    return problem;
  }

  /** The problem of {@code ex}, a request to {@code view} that failed: its message the detail. */
  static ProblemDetail problem(
      HttpStatus status, String type, String title, RuntimeException ex, String view) {
    if (logger.isDebugEnabled()) {
      logger.debug(title + ": " + ex.getMessage());
    }
    ProblemDetail problem = typed(status, type, title, ex.getMessage());
    problem.setProperty("view", view);
    return problem;
  }

  static ProblemDetail badRequest(String detail) {
    return typed(HttpStatus.BAD_REQUEST, "invalid-request", "Bad request", detail);
  }

  /** The problem of {@code status}, of Matview's {@code type} with its {@code title}. */
  static ProblemDetail typed(
      HttpStatus status, String type, String title, @Nullable String detail) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
    problem.setType(ProblemTypes.of(type));
    problem.setTitle(title);
    return problem;
  }

  static ResponseEntity<ProblemDetail> respond(ProblemDetail problem) {
    return ResponseEntity.status(problem.getStatus()).body(problem);
  }
}
