package dev.matview.web;

import dev.matview.changes.TooManyStreamsException;
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
 * Maps every failure of the lookup controllers to an RFC 9457 problem detail with the view, key and
 * partition concerned: Spring MVC's own with their status, anything unexpected a 500.
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
   * What Tomcat (an {@code IllegalStateException} from {@code getParameter}) and Jetty (a 400 "Bad
   * query") throw for parameters that cannot be decoded, named so neither needs the other's
   * classes.
   */
  private static final Set<String> INVALID_PARAMETERS =
      Set.of(
          "org.apache.tomcat.util.http.InvalidParameterException",
          "org.eclipse.jetty.http.HttpException$IllegalArgumentException",
          "org.eclipse.jetty.http.HttpException$IllegalStateException");

  @ExceptionHandler
  ResponseEntity<ProblemDetail> unknownView(UnknownViewException ex) {
    ProblemDetail problem =
        Problems.problem(HttpStatus.NOT_FOUND, "unknown-view", "Unknown view", ex, ex.getView());
    problem.setProperty("nearestViews", ex.getNearest());
    return Problems.respond(problem);
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> peerOnly(PeerOnlyException ex) {
    return Problems.respond(
        Problems.problem(
            HttpStatus.FORBIDDEN,
            "peers-only",
            "Only for the application's instances",
            ex,
            ex.getView()));
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> invalidQuery(InvalidQueryException ex) {
    ProblemDetail problem =
        Problems.problem(
            HttpStatus.BAD_REQUEST, "invalid-request", "Bad request", ex, ex.getView());
    problem.setProperty("parameter", ex.getParameter());
    return Problems.respond(problem);
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> keyTooLong(KeyTooLongException ex) {
    ProblemDetail problem =
        Problems.problem(HttpStatus.URI_TOO_LONG, "key-too-long", "Key too long", ex, ex.getView());
    problem.setProperty("parameter", "key");
    return Problems.respond(problem);
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> bodyTooLarge(BodyTooLargeException ex) {
    ProblemDetail problem =
        Problems.problem(
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
        Problems.problem(
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
    return Problems.respond(
        Problems.badRequest(
            "The request body is not the JSON expected, like {\"keys\": [\"a\", \"b\"]}"));
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> typeMismatch(TypeMismatchException ex) {
    String name = ex.getPropertyName() != null ? ex.getPropertyName() : "parameter";
    ProblemDetail problem =
        Problems.badRequest(
            "'"
                + name
                + "' is not a "
                + simpleName(ex.getRequiredType())
                + ": '"
                + ex.getValue()
                + "'");
    problem.setProperty("parameter", name);
    logger.debug("Bad request: " + problem.getDetail());
    return Problems.respond(problem);
  }

  /**
   * The last resort: Spring MVC's own failures keep their status, anything else is a 500 whose
   * detail says nothing of the internals, logged at ERROR.
   */
  @ExceptionHandler
  @Nullable ResponseEntity<ProblemDetail> unexpected(Exception ex) {
    if (ex instanceof ErrorResponse errorResponse) {
      return Problems.fromErrorResponse(errorResponse);
    }
    if (INVALID_PARAMETERS.contains(ex.getClass().getName())) {
      String message =
          ex.getMessage() != null ? ex.getMessage().lines().findFirst().orElse("") : "";
      ProblemDetail problem =
          Problems.badRequest(
              "The query string cannot be read; percent-encode its parameters as UTF-8 ("
                  + (message.length() > 200 ? message.substring(0, 200) + "..." : message)
                  + ")");
      logger.debug("Bad request: " + problem.getDetail());
      return Problems.respond(problem);
    }
    if (DisconnectedClientHelper.isClientDisconnectedException(ex)) {
      logger.debug("The client went away: " + ex);
      return null;
    }
    return Problems.internalError(ex);
  }

  private static String simpleName(@Nullable Class<?> type) {
    if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
      return "whole number";
    }
    return type != null ? type.getSimpleName() : "value of the expected type";
  }
}
