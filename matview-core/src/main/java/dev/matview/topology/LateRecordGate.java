package dev.matview.topology;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Window;
import org.apache.kafka.streams.processor.api.ContextualFixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Stands just before a view's time-windowed aggregation and applies Kafka Streams' own rule for
 * late records first, so that none is dropped silently: with stream time the largest event time
 * this task's aggregation has seen, a window is closed once its end plus grace is not after stream
 * time (from the partition time its task last committed, when the task starts). A record all of
 * whose windows are closed is a dead letter (reason {@code late}) or counted and left out; one that
 * still has open windows (hopping windows) goes on to them and is counted for the closed ones.
 */
final class LateRecordGate<K, V> extends ContextualFixedKeyProcessor<K, V, V> {

  private final String view;

  private final TimeWindows windows;

  private final RecordRules rules;

  private long streamTime = ConsumerRecord.NO_TIMESTAMP;

  LateRecordGate(String view, TimeWindows windows, RecordRules rules) {
    this.view = view;
    this.windows = windows;
    this.rules = rules;
  }

  @Override
  public void init(FixedKeyProcessorContext<K, V> context) {
    super.init(context);
    this.streamTime = context.currentStreamTimeMs();
  }

  @Override
  public void process(FixedKeyRecord<K, V> record) {
    FixedKeyProcessorContext<K, V> context = context();
    long timestamp = record.timestamp();
    this.streamTime = Math.max(this.streamTime, timestamp);
    long closeTime = this.streamTime - this.windows.gracePeriodMs();
    if (earliestWindowEnd(timestamp) > closeTime) {
      context.forward(record);
      return;
    }
    Map<Long, ? extends Window> all = this.windows.windowsFor(timestamp);
    long closed = all.values().stream().filter(window -> window.end() <= closeTime).count();
    if (closed < all.size()) {
      this.rules.drops().dropped(this.view, RecordDrops.LATE);
      context.forward(record);
    } else {
      long streamTime = this.streamTime;
      this.rules.refuseLate(
          this.view,
          () ->
              RecordDecodingException.late(
                  this.view,
                  timestamp,
                  streamTime,
                  Duration.ofMillis(this.windows.gracePeriodMs())));
    }
  }

  /**
   * The end of the first window of {@code timestamp} to close, the earliest one it belongs to,
   * computed as {@link TimeWindows#windowsFor} does, without building the windows of every record.
   */
  private long earliestWindowEnd(long timestamp) {
    long size = this.windows.sizeMs;
    long advance = this.windows.advanceMs;
    return (Math.max(0, timestamp - size + advance) / advance) * advance + size;
  }
}
