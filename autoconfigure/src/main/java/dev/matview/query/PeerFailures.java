package dev.matview.query;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Tells what went wrong with a request to another instance as a {@link Refusal} that does not name
 * the instance, and logs the instance instead.
 */
final class PeerFailures {

  private static final Log logger = LogFactory.getLog(PeerFailures.class);

  private static final Duration RETRY = StreamsRouting.REBALANCE_RETRY;

  private PeerFailures() {}

  /**
   * The refusal that a {@code failure} of a request to {@code owner} of a partition of {@code view}
   * tells: an I/O failure, a timeout or an interrupt of the waiting thread.
   */
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

  /**
   * The refusal that a {@code failure} of a request to {@code host}, asked to route a lookup of
   * {@code view} that this instance cannot place, tells.
   */
  static Refusal ofRelay(String view, HostInfo host, Exception failure, Duration timeout) {
    Outcome outcome = Outcome.of(failure, timeout);
    logger.warn(
        "The instance "
            + host.host()
            + ":"
            + host.port()
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

  /** The exception that tells {@code refusal} of {@code owner} to code that still throws. */
  static RuntimeException thrown(PartitionOwner owner, Refusal refusal) {
    return refusal.reason() == Refusal.Reason.TIMEOUT
        ? new ViewTimeoutException(
            refusal.view(), owner.partition(), owner.describe(), refusal.detail())
        : refusal.toException();
  }

  /**
   * The refusal that {@code failure} of an asynchronous request to {@code owner} tells; a failure
   * that is neither of the connection nor a timeout is a bug and is thrown again.
   */
  static Refusal ofAsync(String view, PartitionOwner owner, Throwable failure, Duration timeout) {
    Throwable cause = unwrap(failure);
    if (cause instanceof IOException || cause instanceof TimeoutException) {
      return ofOwner(view, owner, (Exception) cause, timeout);
    }
    throw cause instanceof RuntimeException runtime
        ? runtime
        : new IllegalStateException("Forwarding to another instance failed", cause);
  }

  /** Logs at WARN what went wrong with {@code owner} of a partition of {@code view}. */
  static void warn(PartitionOwner owner, String view, String what) {
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

  /** The cause that {@code failure} wraps in completion exceptions. */
  static Throwable unwrap(Throwable failure) {
    Throwable cause = failure;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  /** The reason a failure tells, and how it reads after "which" or "the instance". */
  private record Outcome(Refusal.Reason reason, String what) {

    static Outcome of(Exception failure, Duration timeout) {
      if (failure instanceof HttpConnectTimeoutException || failure instanceof ConnectException) {
        return new Outcome(Refusal.Reason.UNREACHABLE, "cannot be reached");
      }
      if (failure instanceof HttpTimeoutException || failure instanceof TimeoutException) {
        return new Outcome(
            Refusal.Reason.TIMEOUT, "did not answer within " + timeout.toMillis() + " ms");
      }
      if (failure instanceof InterruptedException) {
        return new Outcome(
            Refusal.Reason.UNAVAILABLE, "was not waited for: the request thread was interrupted");
      }
      return new Outcome(Refusal.Reason.UNAVAILABLE, "failed to answer");
    }
  }
}
