package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.matview.query.answer.InvalidQueryException;
import dev.matview.view.ViewWindow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Tests for {@link TimeRange}: only instants Kafka can store, and no overflow at either end. */
class TimeRangeTests {

  private static final ViewWindow WINDOW =
      ViewWindow.tumbling(Duration.ofMinutes(1)).withRetention(Duration.ofHours(2));

  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

  @Test
  void defaultsToTheRetentionBackFromNow() {
    TimeRange range = TimeRange.of("v", WINDOW, null, null, this.clock);
    assertThat(range.from()).isEqualTo(NOW.minus(Duration.ofHours(2)));
    assertThat(range.to()).isEqualTo(NOW);
  }

  @Test
  void startsTheDefaultRangeNoEarlierThanTheEpoch() {
    TimeRange range =
        TimeRange.of("v", WINDOW, null, Instant.parse("1970-01-01T00:00:01Z"), this.clock);
    assertThat(range.from()).isEqualTo(Instant.EPOCH);
  }

  @Test
  void acceptsTheWholeRangeKafkaCanStore() {
    TimeRange range =
        TimeRange.of("v", WINDOW, null, Instant.ofEpochMilli(Long.MAX_VALUE), this.clock);
    assertThat(range.to().toEpochMilli()).isEqualTo(Long.MAX_VALUE);
    assertThat(TimeRange.exactly("v", Instant.EPOCH, range.to()).from()).isEqualTo(Instant.EPOCH);
  }

  @Test
  void refusesAnEndBeyondLongMaxValueMillisecondsNamingTheRange() {
    assertThatExceptionOfType(InvalidQueryException.class)
        .isThrownBy(
            () ->
                TimeRange.of(
                    "v", WINDOW, null, Instant.parse("+999999999-12-31T23:59:59Z"), this.clock))
        .withMessageContaining("1970-01-01T00:00:00Z")
        .withMessageContaining("+292278994-08-17T07:12:55.807Z")
        .satisfies(ex -> assertThat(ex.getParameter()).isEqualTo("to"));
  }

  @Test
  void refusesAStartBeforeTheEpoch() {
    assertThatExceptionOfType(InvalidQueryException.class)
        .isThrownBy(() -> TimeRange.exactly("v", Instant.parse("1969-12-31T23:59:59Z"), NOW))
        .satisfies(ex -> assertThat(ex.getParameter()).isEqualTo("from"));
  }

  @Test
  void refusesAStartAfterTheEnd() {
    assertThatExceptionOfType(InvalidQueryException.class)
        .isThrownBy(() -> TimeRange.of("v", WINDOW, NOW.plusSeconds(1), NOW, this.clock))
        .withMessageContaining("must not be after");
  }
}
