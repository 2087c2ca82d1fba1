package dev.matview.web;

import dev.matview.changes.TooManyStreamsException;
import dev.matview.peer.ProblemTypes;
import dev.matview.query.UnknownViewException;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.ViewUnavailableException;
import java.util.Set;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * Maps lookup failures to RFC 9457 problem details with the view, key and partition concerned.
 * Every failure of the lookup controllers becomes a problem detail: Spring MVC's own with their
 * status, anything unexpected a 500 with a short detail, logged here with its stack trace.
 */
@RestControllerAdvice(
    assignableTypes = {
      ViewController.class,
      ViewScanController.class,
      PartitionSlicesController.class,
      ForwardedKeysController.class,
      ChangeStreamController.class
    })
public class ViewProblemHandler {

  private static final Log logger = LogFactory.getLog(ViewProblemHandler.class);

  /**
   * What Tomcat and Jetty throw when a request's parameters cannot be decoded (Tomcat: the Servlet
   * 6.1 contract, an {@code IllegalStateException} from {@code getParameter}; Jetty: its 400 "Bad
   * query", for a bad escape or bytes that are not UTF-8), named so that neither server needs the
   * other's classes.
   */
  private static final Set<String> INVALID_PARAMETERS =
      Set.of(
          "org.apache.tomcat.util.http.InvalidParameterException",
          "org.eclipse.jetty.http.HttpException$IllegalArgumentException",
          "org.eclipse.jetty.http.HttpException$IllegalStateException");

  @ExceptionHandler
  ResponseEntity<ProblemDetail> unknownView(UnknownViewException ex) {
    ProblemDetail problem =
        problem(HttpStatus.NOT_FOUND, "unknown-view", "Unknown view", ex, ex.getView());
    problem.setProperty("nearestViews", ex.getNearest());
    return respond(problem);
  }

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

  @ExceptionHandler
  ResponseEntity<ProblemDetail> peerOnly(PeerOnlyException ex) {
    return respond(
        problem(
            HttpStatus.FORBIDDEN,
            "peers-only",
            "Only for the application's instances",
            ex,
            ex.getView()));
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> invalidQuery(InvalidQueryException ex) {
    ProblemDetail problem =
        problem(HttpStatus.BAD_REQUEST, "invalid-request", "Bad request", ex, ex.getView());
    problem.setProperty("parameter", ex.getParameter());
    return respond(problem);
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> keyTooLong(KeyTooLongException ex) {
    ProblemDetail problem =
        problem(HttpStatus.URI_TOO_LONG, "key-too-long", "Key too long", ex, ex.getView());
    problem.setProperty("parameter", "key");
    return respond(problem);
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> bodyTooLarge(BodyTooLargeException ex) {
    ProblemDetail problem =
        problem(
            HttpStatus.CONTENT_TOO_LARGE,
            "body-too-large",
            "Request body too large",
            ex,
            ex.getView());
    return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE)
        .header(HttpHeaders.CONNECTION, "close")
        .body(problem);
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> tooManyStreams(TooManyStreamsException ex) {
    ProblemDetail problem =
        problem(
            HttpStatus.TOO_MANY_REQUESTS,
            "too-many-streams",
            "Too many change streams",
            ex,
            ex.getView());
    problem.setProperty("retryAfterSeconds", 1);
    return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
        .header(HttpHeaders.RETRY_AFTER, "1")
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(problem);
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> unavailable(ViewUnavailableException ex) {
    return Refusals.problem(Refusal.of(ex));
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> unreadableBody(HttpMessageNotReadableException ex) {
    return respond(
        badRequest("The request body is not the JSON expected, like {\"keys\": [\"a\", \"b\"]}"));
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> typeMismatch(TypeMismatchException ex) {
    String name = ex.getPropertyName() != null ? ex.getPropertyName() : "parameter";
    ProblemDetail problem =
        badRequest(
            "'"
                + name
                + "' is not a "
                + simpleName(ex.getRequiredType())
                + ": '"
                + ex.getValue()
                + "'");
    problem.setProperty("parameter", name);
    logger.debug("Bad request: " + problem.getDetail());
    return respond(problem);
  }

  /**
   * The last resort: Spring MVC's own failures (method, media type, missing parameter) keep their
   * status as a problem detail; anything else is a 500 whose detail says nothing of the internals,
   * logged here at ERROR.
   */
  @ExceptionHandler
  @Nullable ResponseEntity<ProblemDetail> unexpected(Exception ex) {
    if (ex instanceof ErrorResponse errorResponse) {
      return fromErrorResponse(errorResponse);
    }
    if (INVALID_PARAMETERS.contains(ex.getClass().getName())) {
      String message =
          ex.getMessage() != null ? ex.getMessage().lines().findFirst().orElse("") : "";
      ProblemDetail problem =
          badRequest(
              "The query string cannot be read; percent-encode its parameters as UTF-8 ("
                  + (message.length() > 200 ? message.substring(0, 200) + "..." : message)
                  + ")");
      logger.debug("Bad request: " + problem.getDetail());
      return respond(problem);
    }
    if (DisconnectedClientHelper.isClientDisconnectedException(ex)) {
      logger.debug("The client went away: " + ex);
      return null;
    }
    return internalError(ex);
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

  private static String simpleName(@Nullable Class<?> type) {
    if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
      return "whole number";
    }
    return type != null ? type.getSimpleName() : "value of the expected type";
  }

  /** The problem of {@code ex}, a request to {@code view} that failed: its message the detail. */
  private static ProblemDetail problem(
      HttpStatus status, String type, String title, RuntimeException ex, String view) {
    if (logger.isDebugEnabled()) {
      logger.debug(title + ": " + ex.getMessage());
    }
    ProblemDetail problem = typed(status, type, title, ex.getMessage());
    problem.setProperty("view", view);
    return problem;
  }

  private static ProblemDetail badRequest(String detail) {
    return typed(HttpStatus.BAD_REQUEST, "invalid-request", "Bad request", detail);
  }

  /** The problem of {@code status}, of Matview's {@code type} with its {@code title}. */
  private static ProblemDetail typed(
      HttpStatus status, String type, String title, @Nullable String detail) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
    problem.setType(ProblemTypes.of(type));
    problem.setTitle(title);
    return problem;
  }

  private static ResponseEntity<ProblemDetail> respond(ProblemDetail problem) {
    return ResponseEntity.status(problem.getStatus()).body(problem);
  }
}
