package dev.matview.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import org.junit.jupiter.api.Test;

class BenchmarkArithmeticTests {

  @Test
  void medianOfAnOddCountIsTheMiddleValue() {
    assertThat(Stats.median(List.of(9.0, 1.0, 5.0))).isEqualTo(5.0);
  }

  @Test
  void medianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
    assertThat(Stats.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
  }

  @Test
  void medianOfNothingIsRefused() {
    assertThatIllegalArgumentException().isThrownBy(() -> Stats.median(List.of()));
  }

  @Test
  void ratesHaveSettledWhenTheLastTwoDifferByAtMostTheTolerance() {
    assertThat(Stats.settled(List.of(5_000.0, 11_000.0, 11_900.0), 0.10)).isTrue();
    assertThat(Stats.settled(List.of(5_000.0, 11_000.0, 10_000.0), 0.10)).isTrue();
    assertThat(Stats.settled(List.of(11_000.0, 16_000.0), 0.10)).isFalse();
    assertThat(Stats.settled(List.of(16_000.0, 11_000.0), 0.10)).isFalse();
  }

  @Test
  void oneRateHasNotSettled() {
    assertThat(Stats.settled(List.of(5_000.0), 0.10)).isFalse();
    assertThat(Stats.settled(List.of(), 0.10)).isFalse();
  }

  @Test
  void ratioIsTheFigureOverTheBaseline() {
    assertThat(Stats.ratio(90.0, 100.0)).isEqualTo(0.9);
  }

  @Test
  void ratioOverAZeroBaselineIsNotANumber() {
    assertThat(Stats.ratio(5.0, 0.0)).isNaN();
    assertThat(Stats.ratio(Double.NaN, 1.0)).isNaN();
  }

  @Test
  void figuresAreWrittenWithAboutThreeSignificantDigits() {
    assertThat(Stats.format(123_456.7, "req/s")).isEqualTo("123,457 req/s");
    assertThat(Stats.format(12.345, "ms")).isEqualTo("12.3 ms");
    assertThat(Stats.format(1.2345, "ms")).isEqualTo("1.23 ms");
    assertThat(Stats.format(0.5, "ms")).isEqualTo("0.50 ms");
    assertThat(Stats.format(0.0123, "s")).isEqualTo("0.012 s");
    assertThat(Stats.format(Double.NaN, "s")).isEqualTo("-");
    assertThat(Stats.ratio(0.8949)).isEqualTo("0.89");
  }

  @Test
  void atLeastIsMetFromTheGoalRatioUp() {
    assertThat(Row.atLeast(1, "t", 90, 100, "req/s", 0.9).verdict()).isEqualTo(Verdict.MET);
    assertThat(Row.atLeast(1, "t", 89, 100, "req/s", 0.9).verdict()).isEqualTo(Verdict.MISSED);
    assertThat(Row.atLeast(1, "t", 89, 100, "req/s", 0.9).goal()).isEqualTo(">= 0.90 of baseline");
  }

  @Test
  void atMostIsMetUpToTheGoalRatio() {
    Row row = Row.atMost(2, "t", 150, 100, "ns/op", 1.5);
    assertThat(row.verdict()).isEqualTo(Verdict.MET);
    assertThat(row.ratio()).isEqualTo(1.5);
    assertThat(Row.atMost(2, "t", 151, 100, "ns/op", 1.5).verdict()).isEqualTo(Verdict.MISSED);
  }

  @Test
  void addedAtMostComparesTheDifferenceNotTheRatio() {
    assertThat(Row.addedAtMost(1, "p99", 2.4, 2.0, "ms", 0.5).verdict()).isEqualTo(Verdict.MET);
    assertThat(Row.addedAtMost(1, "p99", 2.6, 2.0, "ms", 0.5).verdict()).isEqualTo(Verdict.MISSED);
    assertThat(Row.addedAtMost(1, "p99", 2.6, 2.0, "ms", 0.5).ratio()).isEqualTo(1.3);
  }

  @Test
  void withinComparesTheFigureWithAnAbsoluteBound() {
    assertThat(Row.within(8, "stale", 0.2, 9.0, "s", 1.0).verdict()).isEqualTo(Verdict.MET);
    assertThat(Row.within(8, "stale", 1.2, 9.0, "s", 1.0).verdict()).isEqualTo(Verdict.MISSED);
  }

  @Test
  void throughputRunsFromTheFirstObservedProgressToCompletion() {
    Throughput throughput = new Throughput();
    throughput.observe(0, 0, 1_000);
    throughput.observe(1_000_000_000L, 100, 1_000);
    throughput.observe(2_000_000_000L, 600, 1_000);
    throughput.observe(4_000_000_000L, 1_000, 1_000);
    assertThat(throughput.complete()).isTrue();
    assertThat(throughput.perSecond(0)).isEqualTo(300.0);
  }

  @Test
  void throughputSeenWholeAtOnceFallsBackToTheWholeTime() {
    Throughput throughput = new Throughput();
    throughput.observe(5, 1_000, 1_000);
    assertThat(throughput.perSecond(2_000_000_000L)).isEqualTo(500.0);
  }

  @Test
  void flagsReadNumbersWithUnitsAndLists() {
    Flags flags = Flags.parse("--keys=1m", "--orders=250k", "--rounds=3", "--only=a, b");
    assertThat(flags.integer("keys", 0)).isEqualTo(1_000_000);
    assertThat(flags.integer("orders", 0)).isEqualTo(250_000);
    assertThat(flags.integer("rounds", 0)).isEqualTo(3);
    assertThat(flags.integer("absent", 7)).isEqualTo(7);
    assertThat(flags.list("only", List.of())).containsExactly("a", "b");
    assertThatIllegalArgumentException().isThrownBy(() -> Flags.parse("keys=1"));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Flags.parse("--keys=many").integer("keys", 0));
  }

  @Test
  void flagsReadTrueOrFalseAndRefuseAnythingElse() {
    Flags flags = Flags.parse("--warmup=false", "--prestart=TRUE", "--caching=yes");
    assertThat(flags.bool("warmup", true)).isFalse();
    assertThat(flags.bool("prestart", false)).isTrue();
    assertThat(flags.bool("absent", true)).isTrue();
    assertThatIllegalArgumentException()
        .isThrownBy(() -> flags.bool("caching", false))
        .withMessageContaining("--caching must be true or false, not yes");
  }
}
