package dev.matview.query.scan;

import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.topology.ResolvedView;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The time one scan page has for all its partitions' slices, which one forwarding timeout bounds.
 */
public final class ScanDeadline {

  private static final Log logger = LogFactory.getLog(ScanDeadline.class);

  private final Clock clock;

  private final Duration budget;

  private final Instant deadline;

  private ScanDeadline(Clock clock, Duration budget) {
    this.clock = clock;
    this.budget = budget;
    this.deadline = clock.instant().plus(budget);
  }

  /** A deadline {@code budget} from now on {@code clock}. */
  public static ScanDeadline startingNow(Clock clock, Duration budget) {
    return new ScanDeadline(clock, budget);
  }

  /** The time left, or {@code null} once none is. */
  public @Nullable Duration remaining() {
    Duration remaining = Duration.between(this.clock.instant(), this.deadline);
    return (remaining.isNegative() || remaining.isZero()) ? null : remaining;
  }

  /** The refusal of a page whose time ran out before {@code owner}'s partition answered. */
  public Refusal outOfTime(ResolvedView<?, ?, ?> view, PartitionOwner owner) {
    if (logger.isDebugEnabled()) {
      logger.debug(
          "A scan of view '"
              + view.name()
              + "' ran out of time before partition "
              + owner.partition()
              + " on "
              + owner.describe()
              + " answered");
    }
    return new Refusal(
        Refusal.Reason.TIMEOUT,
        view.name(),
        null,
        owner.partition(),
        "The scan of view '"
            + view.name()
            + "' ran out of its "
            + this.budget.toMillis()
            + " ms before partition "
            + owner.partition()
            + " answered; ask for a smaller page",
        Refusal.REBALANCE_RETRY);
  }
}
