package dev.matview.query.peer;

import dev.matview.peer.PeerResponse;
import dev.matview.peer.http.PeerHttpResponse;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import java.time.Duration;
import java.util.Locale;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/** What the answer of another instance to a forwarded lookup means for the lookup. */
public final class PeerAnswers {

  private static final Log logger = LogFactory.getLog(PeerAnswers.class);

  private PeerAnswers() {}

  /** The refusal of asking {@code owner}'s instance while it is marked down. */
  static Refusal markedDown(String view, PartitionOwner owner) {
    if (logger.isDebugEnabled()) {
      logger.debug("Skipping " + owner.describe() + ", marked down, for view '" + view + "'");
    }
    return Refusal.ofPeer(
        Refusal.Reason.UNREACHABLE,
        view,
        owner,
        "could not be reached or did not answer in time a moment ago");
  }

  /** What {@code host} answered, as it came, or the refusal of a 404 that is not Matview's. */
  static <T> Routed<T> of(
      String view,
      HostInfo host,
      @Nullable Integer partition,
      String target,
      PeerHttpResponse response) {
    PeerResponse answer = new PeerResponse(response.status(), response.headers(), response.body());
    if (answer.status() == 404 && !answer.namesMatviewProblem()) {
      return new Routed.Refused<>(PeerFailures.notServedAt(view, host, partition, target));
    }
    return new Routed.Relayed<>(answer);
  }

  /**
   * {@code answer} as it came, unless it is an error without a problem detail (a failure of the
   * instance or of something between, told as {@link Refusal.Reason#FAILED}), or a 5xx while {@code
   * mayTryOthers}, told as a refusal so that another replica is asked. A 403 comes as it came: the
   * other instance refused this one's request, which the reader of that endpoint explains.
   */
  static <T> Routed<T> checked(
      String view, PartitionOwner owner, Routed<T> answer, boolean mayTryOthers) {
    PeerResponse response = ((Routed.Relayed<T>) answer).response();
    int status = response.status();
    if (response.isSuccess() || status == 403) {
      return answer;
    }
    if (!isProblem(response)) {
      PeerFailures.warn(owner, view, "answered " + status + " without a problem detail");
      return new Routed.Refused<>(
          Refusal.ofPeer(
              Refusal.Reason.FAILED,
              view,
              owner,
              "answered " + status + " without a problem detail (logged by this instance)"));
    }
    if (!mayTryOthers || status < 500) {
      return answer;
    }
    return new Routed.Refused<>(
        new Refusal(
            status == 504 ? Refusal.Reason.TIMEOUT : Refusal.Reason.UNAVAILABLE,
            view,
            null,
            owner.partition(),
            "another instance answered " + status,
            retryAfter(response.header("Retry-After"))));
  }

  private static boolean isProblem(PeerResponse response) {
    String type = response.header("Content-Type");
    return type != null
        && type.trim().toLowerCase(Locale.ROOT).startsWith("application/problem+json");
  }

  /** The wait that a {@code Retry-After} header says, one second when it says none. */
  public static Duration retryAfter(@Nullable String header) {
    try {
      return header != null
          ? Duration.ofSeconds(Math.max(1, Long.parseLong(header.trim())))
          : Refusal.REBALANCE_RETRY;
    } catch (NumberFormatException ex) {
      return Refusal.REBALANCE_RETRY;
    }
  }
}
