package dev.matview.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.deadletter.DeadLetter;
import dev.matview.deadletter.DeadLetterReason;
import dev.matview.topology.RecordDrops;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** Tests for {@link DroppedRecordMetrics}. */
class DroppedRecordMetricsTests {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private final DroppedRecordMetrics metrics = new DroppedRecordMetrics();

  @Test
  void countsEveryRecordAViewLeftOutWithOrWithoutADeadLetterByViewAndReason() {
    this.metrics.bindTo(this.registry);
    this.metrics.published(letter("per-minute", DeadLetterReason.LATE));
    this.metrics.published(letter(null, DeadLetterReason.PROCESSING));
    this.metrics.dropped("per-minute", RecordDrops.LATE);
    this.metrics.dropped("per-minute", RecordDrops.TOMBSTONE);
    assertThat(count("per-minute", "late")).isEqualTo(2);
    assertThat(count("per-minute", "tombstone")).isEqualTo(1);
    assertThat(count("none", "processing")).isEqualTo(1);
  }

  @Test
  void countsNothingBeforeItIsBoundToARegistry() {
    this.metrics.dropped("per-minute", RecordDrops.TOMBSTONE);
    this.metrics.bindTo(this.registry);
    assertThat(this.registry.find(DroppedRecordMetrics.NAME).counter()).isNull();
  }

  private double count(String view, String reason) {
    return this.registry
        .get(DroppedRecordMetrics.NAME)
        .tag("view", view)
        .tag("reason", reason)
        .counter()
        .count();
  }

  private static DeadLetter letter(@Nullable String view, DeadLetterReason reason) {
    return new DeadLetter(
        view,
        reason,
        "sales",
        0,
        1,
        "p",
        null,
        null,
        new RecordHeaders(),
        new IllegalStateException());
  }
}
