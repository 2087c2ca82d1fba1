package dev.matview.topology;

import java.time.Duration;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Refuses the records that a view's session-windowed aggregation left out as late, so that none is
 * dropped silently: each is a dead letter (reason {@code late}), or counted when late records are
 * not dead letters. Kafka Streams' rule needs the session store, which the aggregation owns: a
 * record is late when the session it would make, merged with the sessions it joins, ends before
 * stream time minus grace minus the inactivity gap. So the {@link SessionAggregateProcessor}
 * decides, after its initializer and merger ran and before its aggregator would, and forwards each
 * late record here with the stream time it came after as its value; a failed initializer or merger
 * forwards nothing. What the gate learns travels with the record, which Kafka Streams hands to the
 * next processor of the same task before the forward returns: no state is shared between the two,
 * so nothing has to tell one task's records from another's on a stream thread.
 *
 * <p>Unlike a time-windowed view's {@link LateRecordGate}, it stands after the aggregation, under
 * the same name ({@link ProcessorNames#lateGate}), so that its dead letters name the same step.
 */
final class SessionLateRecordGate<K> implements Processor<K, Long, Void, Void> {

  private final String view;

  private final SessionWindows windows;

  private final RecordRules rules;

  SessionLateRecordGate(String view, SessionWindows windows, RecordRules rules) {
    this.view = view;
    this.windows = windows;
    this.rules = rules;
  }

  /** Refuses {@code record}, late at the stream time that is its value. */
  @Override
  public void process(Record<K, Long> record) {
    long timestamp = record.timestamp();
    long streamTime = record.value();
    this.rules.refuseLate(
        this.view,
        () ->
            RecordDecodingException.lateForSession(
                this.view,
                timestamp,
                streamTime,
                Duration.ofMillis(this.windows.inactivityGap()),
                Duration.ofMillis(this.windows.gracePeriodMs())));
  }
}
