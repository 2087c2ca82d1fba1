package dev.matview.query.peer;

import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * Tells what went wrong with a request to another instance as a {@link Refusal} that does not name
 * the instance, and logs the instance instead.
 */
public final class PeerFailures {

  private static final Log logger = LogFactory.getLog(PeerFailures.class);

  private static final Duration RETRY = Refusal.REBALANCE_RETRY;

  private PeerFailures() {}

  /** The refusal a {@code failure} of a request to {@code owner} tells. */
  static Refusal ofOwner(String view, PartitionOwner owner, Exception failure, Duration timeout) {
    Outcome outcome = Outcome.of(failure, timeout);
    warn(owner, view, outcome.what() + " (" + failure + ")");
    String owned =
        "Partition " + owner.partition() + " of view '" + view + "' is owned by another instance";
    return new Refusal(
        outcome.reason(),
        view,
        null,
        owner.partition(),
        owned + ", which " + outcome.what(),
        RETRY);
  }

  /** The refusal a {@code failure} of a request to {@code host} to route a lookup tells. */
  static Refusal ofRelay(String view, HostInfo host, Exception failure, Duration timeout) {
    Outcome outcome = Outcome.of(failure, timeout);
    logger.warn(
        "The instance "
            + address(host)
            + ", asked to route a lookup of view '"
            + view
            + "', "
            + outcome.what()
            + " ("
            + failure
            + ")");
    return new Refusal(
        outcome.reason(),
        view,
        null,
        null,
        "Another instance, asked to route this lookup, " + outcome.what(),
        RETRY);
  }

  /** The refusal of a 404 from {@code host} that is not Matview's: it serves another path. */
  static Refusal notServedAt(
      String view, HostInfo host, @Nullable Integer partition, String target) {
    logger.warn(
        "The instance "
            + address(host)
            + " answered 404 to "
            + target
            + " without a problem detail of Matview's: it does not serve the lookups at that path."
            + " Give every instance of the application the same server.servlet.context-path and"
            + " matview.web.base-path");
    return new Refusal(
        Refusal.Reason.FAILED,
        view,
        null,
        partition,
        "Another instance does not serve the lookups at the path this instance forwarded to: every"
            + " instance of the application must serve them under the same"
            + " server.servlet.context-path and matview.web.base-path (logged by this instance)",
        RETRY);
  }

  /** The refusal of a request not sent: no secret is agreed with the other instances yet. */
  static Refusal notAgreed(String view, @Nullable Integer partition) {
    return new Refusal(
        Refusal.Reason.UNAVAILABLE,
        view,
        null,
        partition,
        "This instance has not agreed on a secret with the other instances yet, so it"
            + " cannot ask them",
        RETRY);
  }

  /** The failure that {@code failure}, as a future completes with it, stands for. */
  static Exception unwrapped(Throwable failure) {
    Throwable cause =
        (failure instanceof CompletionException && failure.getCause() != null)
            ? failure.getCause()
            : failure;
    return (cause instanceof Exception exception) ? exception : new IOException(cause);
  }

  private static String address(HostInfo host) {
    return host.host() + ":" + host.port();
  }

  /** Logs at WARN what went wrong with {@code owner} of a partition of {@code view}. */
  public static void warn(PartitionOwner owner, String view, String what) {
    logger.warn(
        "The owner "
            + owner.describe()
            + " of partition "
            + owner.partition()
            + " of view '"
            + view
            + "' "
            + what);
  }

  /** The reason a failure tells, and how it reads after "which" or "the instance". */
  private record Outcome(Refusal.Reason reason, String what) {

    static Outcome of(Exception failure, Duration timeout) {
      if (failure instanceof ConnectException) {
        return new Outcome(Refusal.Reason.UNREACHABLE, "cannot be reached");
      }
      if (failure instanceof SocketTimeoutException) {
        return new Outcome(
            Refusal.Reason.TIMEOUT, "did not answer within " + timeout.toMillis() + " ms");
      }
      return new Outcome(Refusal.Reason.UNAVAILABLE, "failed to answer");
    }
  }
}
