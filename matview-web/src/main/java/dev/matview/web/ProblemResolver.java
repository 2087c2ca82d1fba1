package dev.matview.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;
import tools.jackson.databind.ObjectMapper;

/**
 * Answers problem details, rather than the container's error page, for requests under the lookup
 * endpoints' base path that fail before a controller is chosen (405, 406, 415, 404); those that
 * reach one are {@link ViewProblemHandler}'s.
 */
public final class ProblemResolver implements HandlerExceptionResolver, Ordered {

  private static final Log logger = LogFactory.getLog(ProblemResolver.class);

  private final ProblemWriter problems;

  /** A resolver for the requests under {@code basePath} that writes JSON with {@code mapper}. */
  public ProblemResolver(String basePath, ObjectMapper mapper) {
    this.problems = new ProblemWriter(basePath, mapper);
  }

  @Override
  public @Nullable ModelAndView resolveException(
      HttpServletRequest request,
      HttpServletResponse response,
      @Nullable Object handler,
      Exception ex) {
    if (!(ex instanceof ErrorResponse errorResponse)
        || handler instanceof HandlerMethod
        || !this.problems.covers(request.getRequestURI(), request.getContextPath())
        || response.isCommitted()) {
      return null;
    }
    ResponseEntity<ProblemDetail> answer = Problems.fromErrorResponse(errorResponse);
    answer.getHeaders().forEach((name, values) -> values.forEach(v -> response.addHeader(name, v)));
    ProblemDetail problem = answer.getBody();
    try {
      if (problem != null) {
        this.problems.write(response, problem);
      }
    } catch (IOException writeFailure) {
      logger.debug(
          "Could not write the problem detail of " + request.getRequestURI(), writeFailure);
    }
    return new ModelAndView();
  }

  /** Before Spring MVC's own resolvers, which would send these failures to the error page. */
  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 1;
  }
}
