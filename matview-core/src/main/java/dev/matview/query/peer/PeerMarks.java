package dev.matview.query.peer;

import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The instances that lookups skip for a while because one refused a connection or did not answer in
 * time: lookups learn of a dead or stuck instance from each other in milliseconds, instead of each
 * paying the same failure until Kafka Streams' session timeout removes it from the assignment.
 *
 * <p>A mark lasts the configured time; once that has passed it lasts further while the replica
 * directory does not name the instance, and ends when the instance shows up again there. An answer
 * from the instance ends it at once.
 */
public final class PeerMarks {

  private final long downNanos;

  private final Predicate<HostInfo> named;

  private final LongSupplier nanoTime;

  private final ConcurrentMap<HostInfo, Long> downUntil = new ConcurrentHashMap<>();

  /** Marks that last {@code downFor}, and further while {@code named} does not name the host. */
  public PeerMarks(Duration downFor, Predicate<HostInfo> named) {
    this(downFor, named, System::nanoTime);
  }

  PeerMarks(Duration downFor, Predicate<HostInfo> named, LongSupplier nanoTime) {
    this.downNanos = downFor.toNanos();
    this.named = named;
    this.nanoTime = nanoTime;
  }

  /** Marks that last {@code downFor}, whatever the assignment says. */
  public static PeerMarks lasting(Duration downFor) {
    return new PeerMarks(downFor, (host) -> true);
  }

  /** Marks {@code host} down: it refused a connection or did not answer in time. */
  void down(HostInfo host) {
    if (this.downNanos > 0) {
      this.downUntil.put(host, this.nanoTime.getAsLong() + this.downNanos);
    }
  }

  /** Ends the mark of {@code host}, which has just answered. */
  void up(HostInfo host) {
    if (!this.downUntil.isEmpty()) {
      this.downUntil.remove(host);
    }
  }

  /** Marks {@code host} down when it refused or timed out, up when it answered at all. */
  public void observed(HostInfo host, Routed<?> answer) {
    if (!(answer instanceof Routed.Refused<?> refused)) {
      up(host);
      return;
    }
    Refusal.Reason reason = refused.refusal().reason();
    if (reason == Refusal.Reason.UNREACHABLE || reason == Refusal.Reason.TIMEOUT) {
      down(host);
    }
  }

  /** Whether lookups should skip {@code host} now. */
  public boolean isDown(HostInfo host) {
    Long until = this.downUntil.get(host);
    if (until == null) {
      return false;
    }
    if (this.nanoTime.getAsLong() - until < 0 || !this.named.test(host)) {
      return true;
    }
    this.downUntil.remove(host, until);
    return false;
  }
}
