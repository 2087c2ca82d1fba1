package dev.matview.faults;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The check that a client's reads of growing values never go back in time. */
class MonotonicReadsTests {

  @Test
  void equalAndHigherValuesAndAbsentKeysBeforeAnyValueDoNotGoBack() {
    MonotonicReads reads = new MonotonicReads();

    assertThat(reads.record("a", null, "instance-1")).isFalse();
    assertThat(reads.record("a", 2L, "instance-2")).isFalse();
    assertThat(reads.record("a", 2L, "instance-3")).isFalse();
    assertThat(reads.record("a", 5L, "instance-1")).isFalse();
    assertThat(reads.record("b", 1L, "instance-1")).isFalse();

    assertThat(reads.checked()).isEqualTo(5);
    assertThat(reads.wentBack()).isZero();
    assertThat(reads.examples()).isEmpty();
  }

  @Test
  void aLowerValueOrANotFoundAfterAValueGoesBackNamingWhoAnsweredBoth() {
    MonotonicReads reads = new MonotonicReads();
    reads.record("a", 5L, "instance-1");

    assertThat(reads.record("a", 4L, "instance-2")).isTrue();
    assertThat(reads.record("a", null, "instance-3")).isTrue();
    assertThat(reads.record("a", 5L, "instance-3")).isFalse();

    assertThat(reads.wentBack()).isEqualTo(2);
    assertThat(reads.examples())
        .containsExactly(
            "a: 4 from instance-2, after 5 from instance-1",
            "a: not found from instance-3, after 5 from instance-1");
  }
}
