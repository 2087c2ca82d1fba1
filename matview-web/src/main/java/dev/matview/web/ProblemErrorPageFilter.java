package dev.matview.web;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import tools.jackson.databind.ObjectMapper;

/**
 * On the container's error dispatch, answers a problem detail instead of the error page for
 * requests under the lookup endpoints' base path, such as a {@code TRACE} the container refuses.
 */
public final class ProblemErrorPageFilter implements Filter {

  private final ProblemWriter problems;

  /** A filter for the requests under {@code basePath} that writes JSON with {@code mapper}. */
  public ProblemErrorPageFilter(String basePath, ObjectMapper mapper) {
    this.problems = new ProblemWriter(basePath, mapper);
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (request instanceof HttpServletRequest http
        && response instanceof HttpServletResponse httpResponse
        && request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) instanceof String uri
        && this.problems.covers(uri, http.getContextPath())
        && !httpResponse.isCommitted()) {
      this.problems.write(httpResponse, problem(request));
      return;
    }
    chain.doFilter(request, response);
  }

  /** The problem of a filter's failure Spring MVC could not map, else of the container's status. */
  private static ProblemDetail problem(ServletRequest request) {
    Object failure = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
    for (Throwable cause = failure instanceof Throwable throwable ? throwable : null;
        cause != null;
        cause = cause.getCause()) {
      if (cause instanceof ErrorResponse errorResponse) {
        return Problems.problemOf(errorResponse);
      }
      if (cause instanceof HttpMessageNotReadableException) {
        ProblemDetail problem =
            ProblemDetail.forStatusAndDetail(
                HttpStatus.BAD_REQUEST,
                "The request body cannot be read as the Content-Type it names");
        problem.setTitle(HttpStatus.BAD_REQUEST.getReasonPhrase());
        return problem;
      }
    }
    int status =
        request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) instanceof Integer code
            ? code
            : HttpStatus.INTERNAL_SERVER_ERROR.value();
    HttpStatus known = HttpStatus.resolve(status);
    String title = known != null ? known.getReasonPhrase() : "Error";
    String detail =
        request.getAttribute(RequestDispatcher.ERROR_MESSAGE) instanceof String message
                && !message.isBlank()
                && status < 500
            ? message.lines().findFirst().orElse(title)
            : title;
    ProblemDetail problem = ProblemDetail.forStatus(status);
    problem.setDetail(detail);
    problem.setType(URI.create("about:blank"));
    problem.setTitle(title);
    return problem;
  }
}
