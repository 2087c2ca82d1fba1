package dev.matview.query.peer;

import dev.matview.observation.MatviewObservations;
import dev.matview.peer.PeerRequests;
import dev.matview.query.routing.CallerContext;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.transport.RequestReplySenderContext;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * Observes each request to another instance as {@link MatviewObservations#PEER_EXCHANGE}, a child
 * of its caller's observation, with a sender's context whose carrier is the request's headers: a
 * tracing handler writes the trace context there ({@code traceparent}, {@code tracestate}), which
 * the other instance's server observation reads, so that a forwarded read is one trace across both.
 * The peers' signature does not cover those headers, on purpose: they change nothing of the answer,
 * only the trace the other instance's spans join, which any caller of the application may name as
 * well (its server observation reads them before the peers' filter checks a signature); and which
 * headers carry a trace context depends on the propagation the application configures (W3C's, B3's,
 * baggage), which a signature over a fixed list of headers could not follow.
 */
final class PeerExchangeObservations {

  private PeerExchangeObservations() {}

  /**
   * Starts the observation of a request to {@code host}, writing its trace into {@code headers}.
   */
  static Observation start(
      CallerContext caller,
      HostInfo host,
      String marker,
      String method,
      String pathAndQuery,
      boolean streamed,
      Map<String, String> headers) {
    if (caller.observation().isNoop()) {
      return Observation.NOOP;
    }
    String[] segments = segments(pathAndQuery);
    String view = (segments.length > 1) ? decoded(segments[1]) : "unknown";
    Observation observation =
        MatviewObservations.start(
            caller.observation(),
            MatviewObservations.PEER_EXCHANGE,
            () -> {
              RequestReplySenderContext<Map<String, String>, Integer> context =
                  new RequestReplySenderContext<>(
                      (carrier, name, value) -> {
                        if (carrier != null) {
                          carrier.put(name, value);
                        }
                      });
              context.setCarrier(headers);
              return context;
            },
            view,
            operation(marker, segments, streamed),
            KeyValues.of("method", method));
    return observation.highCardinalityKeyValue(
        MatviewObservations.PEER, host.host() + ":" + host.port());
  }

  /** Stops {@code observation} of an exchange answered with {@code status}. */
  static void answered(Observation observation, int status) {
    stop(observation, status, "answered", null);
  }

  /** Stops {@code observation} of an exchange that ended with {@code failure}, unanswered. */
  static void failed(Observation observation, Throwable failure) {
    stop(observation, -1, null, failure);
  }

  /**
   * Stops {@code observation} with the answer's {@code status} and {@code outcome}, or a failure.
   */
  static void stop(
      Observation observation, int status, @Nullable String outcome, @Nullable Throwable failure) {
    if (observation.isNoop()) {
      return;
    }
    observation.lowCardinalityKeyValue(
        MatviewObservations.STATUS, (status < 0) ? "none" : Integer.toString(status));
    if (failure == null) {
      MatviewObservations.stop(observation, (outcome != null) ? outcome : "answered");
      return;
    }
    Exception cause = PeerFailures.unwrapped(failure);
    String told =
        (cause instanceof ConnectException)
            ? "unreachable"
            : (cause instanceof SocketTimeoutException) ? "timeout" : "failed";
    MatviewObservations.stop(observation, (outcome != null) ? outcome : told, cause);
  }

  /** What a peer request asks for, read from its path, or {@code relay} for a relayed lookup. */
  private static String operation(String marker, String[] segments, boolean streamed) {
    if (PeerRequests.RELAYED.equals(marker)) {
      return "relay";
    }
    String kind = (segments.length > 2) ? segments[2] : "";
    String last = segments[segments.length - 1];
    return switch (kind) {
      case "keys" -> (segments.length == 4) ? "key" : last.equals("changes") ? "key-changes" : last;
      case "partitions" -> streamed ? "slice-stream" : "slice";
      case "changes" -> "view-changes";
      case "batch", "forwarded-keys" -> kind;
      default -> "other";
    };
  }

  private static String[] segments(String pathAndQuery) {
    int query = pathAndQuery.indexOf('?');
    return ((query < 0) ? pathAndQuery : pathAndQuery.substring(0, query)).split("/", -1);
  }

  private static String decoded(String segment) {
    return URLDecoder.decode(segment, StandardCharsets.UTF_8);
  }
}
