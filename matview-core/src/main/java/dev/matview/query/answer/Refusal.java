package dev.matview.query.answer;

import dev.matview.replica.AppliedOffset;
import dev.matview.replica.PartitionProgress;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Why no replica answered a lookup, as a value in the way of Kafka Streams' IQv2 {@code
 * FailureReason}: the reason, the view, key and partition concerned, a detail for the caller that
 * names no internal host, and when to ask again.
 *
 * @param reason why
 * @param view the view asked
 * @param key the key asked, if any
 * @param partition the key's partition, if known
 * @param detail what the caller is told
 * @param retryAfter how long the caller should wait before it asks again
 * @param behind when this instance's replica has not yet applied what the caller asked to see, how
 *     far it is and how far it must get
 */
public record Refusal(
    Reason reason,
    String view,
    @Nullable Object key,
    @Nullable Integer partition,
    String detail,
    Duration retryAfter,
    @Nullable Behind behind)
    implements Placement {

  /** A refusal for any reason but a replica that is behind the caller's bound. */
  public Refusal(
      Reason reason,
      String view,
      @Nullable Object key,
      @Nullable Integer partition,
      String detail,
      Duration retryAfter) {
    this(reason, view, key, partition, detail, retryAfter, null);
  }

  /** How long a caller waits before it asks again while the instances rebalance. */
  public static final Duration REBALANCE_RETRY = Duration.ofSeconds(1);

  /** Why a replica, or every replica, refused. */
  public enum Reason {
    /** This instance is shutting down. */
    SHUTTING_DOWN,
    /** Kafka Streams is not running here, or not yet. */
    NOT_RUNNING,
    /** Not every partition has a known owner while the instances rebalance. */
    OWNER_UNKNOWN,
    /** The replica asked cannot answer now: restoring, lagging beyond the bound, or moved. */
    UNAVAILABLE,
    /** Another instance refused the connection or failed to answer; or is marked down. */
    UNREACHABLE,
    /** Another instance did not answer in time. */
    TIMEOUT,
    /** A store, a serde or another instance failed in a way Matview does not foresee. */
    FAILED,
    /** The replica has not yet applied the position or the records the caller asked to see. */
    BEHIND
  }

  /**
   * This instance's replica of a partition, which has applied its topic up to {@code applied} while
   * the caller needs {@code required}, or which cannot tell yet (its store is not open).
   *
   * @param progress what wakes a read that waits for the replica to move on
   * @param applied the offset of the last record it had applied, or {@link AppliedOffset#NONE}
   * @param required the offset of the last record the caller needs applied
   * @param poll whether more than the replica's progress tells when it is there, so that a wait
   *     asks again from time to time as well
   */
  public record Behind(PartitionProgress progress, long applied, long required, boolean poll) {

    /** Nothing to be woken by: a read that waits asks again every poll. */
    public static Behind polling() {
      return new Behind(PartitionProgress.NONE, AppliedOffset.NONE, AppliedOffset.NONE, true);
    }
  }

  /** This refusal, which a read that asks for a position waits out as {@code behind} says. */
  public Refusal waitingOn(Behind behind) {
    return new Refusal(
        this.reason, this.view, this.key, this.partition, this.detail, this.retryAfter, behind);
  }

  /** The refusal that {@code ex} tells, from a part of Matview that still throws. */
  public static Refusal of(ViewUnavailableException ex) {
    return new Refusal(
        Reason.UNAVAILABLE,
        ex.getView(),
        ex.getKey(),
        ex.getPartition(),
        String.valueOf(ex.getMessage()),
        ex.getRetryAfter());
  }

  /** A refusal of the instance holding {@code owner}'s partition, which {@code which} describes. */
  public static Refusal ofPeer(Reason reason, String view, PartitionOwner owner, String which) {
    return new Refusal(
        reason,
        view,
        null,
        owner.partition(),
        "Partition "
            + owner.partition()
            + " of view '"
            + view
            + "' is owned by another instance, which "
            + which,
        REBALANCE_RETRY);
  }

  /** The exception that tells this refusal, for the services that answer by throwing. */
  public RuntimeException toException() {
    return new ViewUnavailableException(
        this.view, this.key, this.partition, this.detail, this.retryAfter);
  }
}
