package dev.matview.topology;

import org.apache.kafka.streams.kstream.Aggregator;
import org.apache.kafka.streams.kstream.Initializer;
import org.apache.kafka.streams.kstream.Merger;

/**
 * Tells a {@link SessionLateRecordGate} what a session-windowed view's aggregation did with the
 * record the gate just forwarded to it. The aggregation ({@link SessionAggregateProcessor}, in
 * Kafka Streams' own order) calls the initializer, then the merger once per session the record
 * joins, then decides lateness, and calls the aggregator only for a record it keeps: a record it
 * drops as late reaches neither the aggregator nor an exception. Kafka Streams runs a task's
 * records one at a time on one stream thread, from the gate through the aggregation before the
 * gate's forward returns, so the outcome is kept per thread.
 */
final class SessionAggregationProbe {

  /** What the aggregation did with the last record forwarded on this thread. */
  enum Outcome {
    /** Neither aggregated nor failed: dropped as late, or not forwarded yet. */
    NONE,
    /** Kept: Kafka Streams called the aggregator. */
    AGGREGATED,
    /** The initializer or the merger threw before Kafka Streams decided on lateness. */
    FAILED
  }

  private final ThreadLocal<Outcome> outcome = ThreadLocal.withInitial(() -> Outcome.NONE);

  /** Forgets the previous record's outcome on this thread, before forwarding the next one. */
  void expect() {
    this.outcome.set(Outcome.NONE);
  }

  /** What the aggregation did with the record forwarded on this thread since {@link #expect()}. */
  Outcome outcome() {
    return this.outcome.get();
  }

  /** {@code initializer}, telling this probe when it throws. */
  <A> Initializer<A> initializer(Initializer<A> initializer) {
    return () -> {
      try {
        return initializer.apply();
      } catch (RuntimeException ex) {
        this.outcome.set(Outcome.FAILED);
        throw ex;
      }
    };
  }

  /**
   * {@code aggregator}, telling this probe that the record was kept before it runs, so that an
   * aggregator that throws is an aggregation failure, not a late record.
   */
  <K, V, A> Aggregator<K, V, A> aggregator(Aggregator<K, V, A> aggregator) {
    return (key, value, aggregate) -> {
      this.outcome.set(Outcome.AGGREGATED);
      return aggregator.apply(key, value, aggregate);
    };
  }

  /** {@code merger}, telling this probe when it throws. */
  <K, A> Merger<K, A> merger(Merger<K, A> merger) {
    return (key, older, newer) -> {
      try {
        return merger.apply(key, older, newer);
      } catch (RuntimeException ex) {
        this.outcome.set(Outcome.FAILED);
        throw ex;
      }
    };
  }
}
