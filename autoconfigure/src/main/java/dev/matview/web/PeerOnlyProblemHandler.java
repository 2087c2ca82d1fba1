package dev.matview.web;

import java.net.URI;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Refuses callers other than the application's own instances on the partition-slice endpoints with
 * a 403 problem detail that names no instance.
 */
@RestControllerAdvice(assignableTypes = ViewScanController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
public class PeerOnlyProblemHandler {

  private static final Log logger = LogFactory.getLog(PeerOnlyProblemHandler.class);

  @ExceptionHandler
  ResponseEntity<ProblemDetail> peerOnly(PeerOnlyException ex) {
    if (logger.isDebugEnabled()) {
      logger.debug("Refused a caller that is no instance of this application: " + ex.getMessage());
    }
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN, ex.getMessage());
    problem.setType(URI.create("https://matview.dev/problems/peers-only"));
    problem.setTitle("Only for the application's instances");
    problem.setProperty("view", ex.getView());
    return ResponseEntity.status(HttpStatus.FORBIDDEN).body(problem);
  }
}
