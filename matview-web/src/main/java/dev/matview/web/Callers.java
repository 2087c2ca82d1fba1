package dev.matview.web;

import dev.matview.peer.PeerRequests;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.routing.CallerContext;
import io.micrometer.observation.Observation;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * Reads what matters for routing a lookup from its request: forwarded only with the marker on a
 * request {@link PeerRequestFilter} found signed, observed under what {@link
 * RequestObservationFilter} kept.
 */
final class Callers {

  private Callers() {}

  /** The caller of a lookup of {@code view}: its headers, {@code allowStale} and {@code maxLag}. */
  static CallerContext from(HttpServletRequest request, String view) {
    String marker = request.getHeader(PeerRequests.FORWARDED_HEADER);
    boolean peer = marker != null && PeerRequestFilter.isPeer(request);
    CallerContext caller =
        new CallerContext(
            peer && PeerRequests.FORWARDED.equals(marker),
            request.getHeader(HttpHeaders.AUTHORIZATION),
            allowStale(view, request.getParameter("allowStale")),
            maxLag(view, request.getParameter("maxLag")),
            peer && PeerRequests.RELAYED.equals(marker));
    Observation observation = RequestObservationFilter.of(request);
    return (observation != null) ? caller.withObservation(observation) : caller;
  }

  /** Refuses a request to a peers-only endpoint unless another instance signed it. */
  static void requirePeer(String view, HttpHeaders headers) {
    if (!forwarded(headers)) {
      throw new PeerOnlyException(view);
    }
  }

  private static boolean forwarded(HttpHeaders headers) {
    if (!PeerRequests.FORWARDED.equals(headers.getFirst(PeerRequests.FORWARDED_HEADER))) {
      return false;
    }
    RequestAttributes request = RequestContextHolder.getRequestAttributes();
    return request != null
        && Boolean.TRUE.equals(
            request.getAttribute(
                PeerRequestFilter.PEER_ATTRIBUTE, RequestAttributes.SCOPE_REQUEST));
  }

  private static @Nullable Boolean allowStale(String view, @Nullable String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    if (!value.equals("true") && !value.equals("false")) {
      throw new InvalidQueryException(
          view, "allowStale", "'allowStale' must be true or false, was '" + value + "'");
    }
    return Boolean.valueOf(value);
  }

  private static @Nullable Long maxLag(String view, @Nullable String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      long maxLag = Long.parseLong(value);
      if (maxLag >= 0) {
        return maxLag;
      }
    } catch (NumberFormatException ex) {
      // reported below
    }
    throw new InvalidQueryException(
        view,
        "maxLag",
        "'maxLag' must be a whole number of offsets, 0 or more, was '" + value + "'");
  }
}
