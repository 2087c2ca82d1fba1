package dev.matview.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.InternalFixedKeyRecordFactory;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

/**
 * The late-record rule of windowed views across a task's restart: a task that starts again (after a
 * failure, an abort under exactly-once, a rebalance) starts from the partition time it last
 * committed, so that the windows it had closed stay closed, as they would had it never stopped.
 */
class LateRecordGateTests {

  private static final TimeWindows HOURLY =
      TimeWindows.ofSizeAndGrace(Duration.ofHours(1), Duration.ZERO);

  private static final long TEN = Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();

  private final List<FixedKeyRecord<String, String>> forwarded = new ArrayList<>();

  @Test
  void aTaskThatStartsAgainKeepsTheWindowsClosedThatItsCommittedStreamTimeClosed() {
    LateRecordGate<String, String> gate = started(TEN + Duration.ofHours(3).toMillis());

    assertThatExceptionOfType(RecordDecodingException.class)
        .isThrownBy(() -> gate.process(record(TEN + 1)))
        .withMessageContaining("window closed");
    assertThat(this.forwarded).isEmpty();
  }

  @Test
  void aTaskThatStartsAgainTakesRecordsOfWindowsStillOpenAtItsCommittedStreamTime() {
    LateRecordGate<String, String> gate = started(TEN + Duration.ofMinutes(30).toMillis());

    gate.process(record(TEN + 1));

    assertThat(this.forwarded).extracting(FixedKeyRecord::timestamp).containsExactly(TEN + 1);
  }

  @Test
  void aTaskThatNeverCommittedTakesItsFirstRecordWhateverItsTime() {
    LateRecordGate<String, String> gate = started(ConsumerRecord.NO_TIMESTAMP);

    gate.process(record(TEN + 1));

    assertThat(this.forwarded).hasSize(1);
  }

  private LateRecordGate<String, String> started(long committedStreamTime) {
    LateRecordGate<String, String> gate =
        new LateRecordGate<>("orders", HOURLY, RecordRules.STANDARD);
    gate.init(context(committedStreamTime));
    return gate;
  }

  @SuppressWarnings("unchecked")
  private FixedKeyProcessorContext<String, String> context(long streamTime) {
    return (FixedKeyProcessorContext<String, String>)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {FixedKeyProcessorContext.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "currentStreamTimeMs" -> streamTime;
                  case "forward" -> this.forwarded.add((FixedKeyRecord<String, String>) args[0]);
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  private static FixedKeyRecord<String, String> record(long timestamp) {
    return InternalFixedKeyRecordFactory.create(new Record<>("k", "v", timestamp));
  }
}
