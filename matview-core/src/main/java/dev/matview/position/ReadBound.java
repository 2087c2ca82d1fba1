package dev.matview.position;

import dev.matview.peer.PeerPath;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a request asks an answer to include: a position of the view that an earlier answer carried
 * (no older value may follow it), and records of the view's source topic (the caller's own writes).
 * A replica answers only once it has applied all of it for the partitions it reads, waiting for it
 * at most {@code maxWait}.
 *
 * @param position the position sent back, or {@code null}
 * @param token the position written as a token, to send on to another instance, or {@code null}
 * @param records the input records named with {@code after=}
 * @param maxWait how long a replica that has not applied it yet may wait before it refuses
 * @param isolation which state the answer may come from, {@code null} for the instance's default
 */
public record ReadBound(
    @Nullable ViewPosition position,
    @Nullable String token,
    List<InputRecord> records,
    Duration maxWait,
    @Nullable Isolation isolation) {

  /** A request that asks for nothing in particular. */
  public static final ReadBound NONE = new ReadBound(null, null, List.of(), Duration.ZERO);

  /** A bound that leaves the isolation to the instance's default. */
  public ReadBound(
      @Nullable ViewPosition position,
      @Nullable String token,
      List<InputRecord> records,
      Duration maxWait) {
    this(position, token, records, maxWait, null);
  }

  /** Copies the records. */
  public ReadBound {
    records = List.copyOf(records);
  }

  /** The query parameter that names an input record on lookups, batches and scans. */
  public static final String RECORD_PARAMETER = "after";

  /**
   * The query parameter that names an input record on the partition slices instances ask each other
   * for, whose {@code after} is where the slice starts.
   */
  public static final String SLICE_RECORD_PARAMETER = "after-record";

  /**
   * {@code path} with what this bound asks for as query parameters, for another instance that is to
   * answer under it: {@code position=} and each {@code after=}.
   */
  public PeerPath addTo(PeerPath path) {
    return addTo(path, RECORD_PARAMETER);
  }

  /** {@code path} with this bound as query parameters, each record as {@code recordParameter}. */
  public PeerPath addTo(PeerPath path, String recordParameter) {
    PeerPath bounded =
        path.param("position", this.token)
            .param(
                Isolation.PARAMETER,
                (this.isolation != null) ? this.isolation.parameterValue() : null);
    for (InputRecord record : this.records) {
      bounded = bounded.param(recordParameter, record.toString());
    }
    return bounded;
  }

  /**
   * How long to wait for another instance that may itself wait for what this bound asks: {@code
   * timeout}, and {@code maxWait} on top when it asks for anything.
   */
  public Duration waited(Duration timeout) {
    return isBound() ? timeout.plus(this.maxWait) : timeout;
  }

  /** This bound, asking for {@code isolation}, or the instance's default when {@code null}. */
  public ReadBound withIsolation(@Nullable Isolation isolation) {
    return new ReadBound(this.position, this.token, this.records, this.maxWait, isolation);
  }

  /** Whether it asks for any position or record: the isolation alone makes no read wait. */
  public boolean isBound() {
    return (this.position != null && !this.position.isEmpty()) || !this.records.isEmpty();
  }
}
