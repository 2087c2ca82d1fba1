package dev.matview.query.peer;

import dev.matview.peer.ForwardedKeys;
import dev.matview.peer.PeerPath;
import dev.matview.peer.PeerResponse;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * The paths, refusals and answers of the key lookups {@link GatheredKeyLookups} sends: each key's
 * answer read out of a request that carried several, as its lookup alone would have had it.
 */
final class GatheredAnswers {

  private GatheredAnswers() {}

  /**
   * The path of a lookup of {@code rawKey} alone in {@code view}, with {@code query} ({@code ?} and
   * its parameters, or nothing).
   */
  static String keyPath(String view, String rawKey, String query) {
    return PeerPath.ofKey(view, rawKey).query(query).toString();
  }

  /**
   * The refusal that stands for a request that could not be sent, keeping {@code ex} in {@code
   * failure} so that each lookup it carried can be told why in its own partition's terms.
   */
  static Refusal notSent(String view, Exception ex, Exception[] failure) {
    failure[0] = ex;
    return new Refusal(
        Refusal.Reason.UNAVAILABLE, view, null, null, "not sent", Refusal.REBALANCE_RETRY);
  }

  /**
   * Each key's answer in {@code answer} to a request that carried {@code expected} keys, as its
   * lookup alone would have had it relayed, or {@code null} when the answer is not one this
   * instance reads: then each lookup goes alone.
   */
  static @Nullable List<Routed<PeerResponse>> relayedAnswers(
      ObjectMapper mapper, Routed<PeerResponse> answer, int expected) {
    if (!(answer instanceof Routed.Relayed<PeerResponse> relayed)
        || relayed.response().status() != 200) {
      return null;
    }
    List<ForwardedKeys.Answer> answers =
        ForwardedKeys.answers(mapper, relayed.response().body(), expected);
    return (answers != null) ? answers.stream().map(GatheredAnswers::relayed).toList() : null;
  }

  private static Routed<PeerResponse> relayed(ForwardedKeys.Answer answer) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    answer.headers().forEach((name, value) -> headers.put(name, List.of(value)));
    return new Routed.Relayed<>(
        new PeerResponse(answer.status(), headers, answer.body().getBytes(StandardCharsets.UTF_8)));
  }
}
