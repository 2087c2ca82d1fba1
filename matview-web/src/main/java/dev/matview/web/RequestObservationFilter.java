package dev.matview.web;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Keeps each HTTP request's observation with the request, so what it starts, on any thread, names
 * it as its parent ({@link Callers}).
 */
public final class RequestObservationFilter extends OncePerRequestFilter {

  /** The request attribute that holds the request's observation. */
  static final String OBSERVATION_ATTRIBUTE =
      RequestObservationFilter.class.getName() + ".observation";

  private final ObservationRegistry registry;

  /** A filter that reads the request's observation, the current one, from {@code registry}. */
  public RequestObservationFilter(ObservationRegistry registry) {
    this.registry = registry;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    Observation current = this.registry.getCurrentObservation();
    if (current != null && !current.isNoop()) {
      request.setAttribute(OBSERVATION_ATTRIBUTE, current);
    }
    chain.doFilter(request, response);
  }

  /** The observation kept with {@code request}, or {@code null}. */
  static @Nullable Observation of(HttpServletRequest request) {
    return (request.getAttribute(OBSERVATION_ATTRIBUTE) instanceof Observation observation)
        ? observation
        : null;
  }
}
