package dev.matview.query.routing;

import dev.matview.position.ReadBound;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What a lookup request carries that matters for routing it.
 *
 * @param forwarded whether another instance forwarded the request, which may then only be answered
 *     locally
 * @param authorization the caller's {@code Authorization} header, passed on when forwarding
 * @param allowStale whether a standby or restoring replica may answer, or {@code null} for the
 *     configured default
 * @param maxLag most changelog offsets such a replica may lag, or {@code null} for the default
 * @param relayed whether another instance that could not route the request asked this one to, which
 *     may then not ask a third
 * @param bound what the answer must include: a position an earlier answer carried, the caller's own
 *     writes
 * @param observation the observation that what the request starts is observed under, carried with
 *     the request from the web edge to whatever thread goes on with it (no thread-local state): the
 *     HTTP request's, then Matview's own; {@link Observation#NOOP} when nothing observes it
 */
public record CallerContext(
    boolean forwarded,
    @Nullable String authorization,
    @Nullable Boolean allowStale,
    @Nullable Long maxLag,
    boolean relayed,
    ReadBound bound,
    Observation observation) {

  /** A request observed by nothing. */
  public CallerContext(
      boolean forwarded,
      @Nullable String authorization,
      @Nullable Boolean allowStale,
      @Nullable Long maxLag,
      boolean relayed,
      ReadBound bound) {
    this(forwarded, authorization, allowStale, maxLag, relayed, bound, Observation.NOOP);
  }

  /** A request that asks for no position in particular. */
  public CallerContext(
      boolean forwarded,
      @Nullable String authorization,
      @Nullable Boolean allowStale,
      @Nullable Long maxLag,
      boolean relayed) {
    this(forwarded, authorization, allowStale, maxLag, relayed, ReadBound.NONE);
  }

  /** A request that no instance relayed. */
  public CallerContext(
      boolean forwarded,
      @Nullable String authorization,
      @Nullable Boolean allowStale,
      @Nullable Long maxLag) {
    this(forwarded, authorization, allowStale, maxLag, false);
  }

  /** A request without stale-read options of its own. */
  public CallerContext(boolean forwarded, @Nullable String authorization) {
    this(forwarded, authorization, null, null, false);
  }

  /** This caller, asking its answer to include what {@code bound} names. */
  public CallerContext withBound(ReadBound bound) {
    return new CallerContext(
        this.forwarded,
        this.authorization,
        this.allowStale,
        this.maxLag,
        this.relayed,
        bound,
        this.observation);
  }

  /** This caller, its further work observed under {@code observation} unless that is a no-op. */
  public CallerContext withObservation(Observation observation) {
    if (observation.isNoop()) {
      return this;
    }
    return new CallerContext(
        this.forwarded,
        this.authorization,
        this.allowStale,
        this.maxLag,
        this.relayed,
        this.bound,
        observation);
  }

  /** Whether this instance may ask another to route the request: neither forwarded nor relayed. */
  public boolean mayRelay() {
    return !this.forwarded && !this.relayed;
  }

  /** A request made directly by a client, without credentials. */
  public static CallerContext direct() {
    return new CallerContext(false, null);
  }
}
