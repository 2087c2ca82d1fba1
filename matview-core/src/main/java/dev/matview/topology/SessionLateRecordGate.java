package dev.matview.topology;

import java.time.Duration;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.processor.api.ContextualFixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Stands just before a view's session-windowed aggregation so that a record Kafka Streams drops as
 * late is not dropped silently. Kafka Streams' rule needs the session store, which the aggregation
 * owns: a record is late when the session it would make, merged with the sessions it joins, ends
 * before stream time minus grace minus the inactivity gap. So the gate keeps stream time as the
 * aggregation does (the largest event time of the task's records with a key), forwards the record,
 * and asks the {@link SessionAggregationProbe} what the aggregation did with it. A record that
 * could be late (its own event time is before that bound) and that the aggregation neither
 * aggregated nor failed on was dropped as late: it is a dead letter (reason {@code late}), or
 * counted when late records are not dead letters.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class SessionLateRecordGate<K, V> extends ContextualFixedKeyProcessor<K, V, V> {

  private final String view;

  private final SessionWindows windows;

  private final SessionAggregationProbe probe;

  private final RecordRules rules;

  private long streamTime = ConsumerRecord.NO_TIMESTAMP;

  SessionLateRecordGate(
      String view, SessionWindows windows, SessionAggregationProbe probe, RecordRules rules) {
    this.view = view;
    this.windows = windows;
    this.probe = probe;
    this.rules = rules;
  }

  @Override
  public void process(FixedKeyRecord<K, V> record) {
    FixedKeyProcessorContext<K, V> context = context();
    if (record.key() == null) {
      context.forward(record);
      return;
    }
    long timestamp = record.timestamp();
    this.streamTime = Math.max(this.streamTime, timestamp);
    long closeTime = this.streamTime - this.windows.gracePeriodMs() - this.windows.inactivityGap();
    if (timestamp >= closeTime) {
      context.forward(record);
      return;
    }
    this.probe.expect();
    context.forward(record);
    if (this.probe.outcome() != SessionAggregationProbe.Outcome.NONE) {
      return;
    }
    long streamTime = this.streamTime;
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
