package dev.matview.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.deadletter.DeadLetter;
import dev.matview.deadletter.DeadLetterReason;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** Tests for {@link DeadLetterMetrics}. */
class DeadLetterMetricsTests {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private final DeadLetterMetrics metrics = new DeadLetterMetrics();

  @Test
  void countsDeadLettersByViewAndReason() {
    this.metrics.bindTo(this.registry);
    this.metrics.published(letter("per-shop", DeadLetterReason.DESERIALIZATION));
    this.metrics.published(letter("per-shop", DeadLetterReason.DESERIALIZATION));
    this.metrics.published(letter("per-shop", DeadLetterReason.AGGREGATION));
    this.metrics.published(letter(null, DeadLetterReason.PROCESSING));
    assertThat(count("per-shop", "deserialization")).isEqualTo(2);
    assertThat(count("per-shop", "aggregation")).isEqualTo(1);
    assertThat(count("none", "processing")).isEqualTo(1);
  }

  @Test
  void countsNothingBeforeItIsBoundToARegistry() {
    this.metrics.published(letter("per-shop", DeadLetterReason.AGGREGATION));
    this.metrics.bindTo(this.registry);
    assertThat(this.registry.find(DeadLetterMetrics.NAME).counter()).isNull();
  }

  private double count(String view, String reason) {
    return this.registry
        .get(DeadLetterMetrics.NAME)
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
