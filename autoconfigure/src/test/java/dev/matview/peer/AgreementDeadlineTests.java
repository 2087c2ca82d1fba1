package dev.matview.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** Tests for {@link AgreementDeadline}. */
class AgreementDeadlineTests {

  @Test
  void givesEachCallTheTimeLeftUntilTheDeadline() throws TimeoutException {
    AgreementDeadline deadline = AgreementDeadline.after(Duration.ofMinutes(1));
    assertThat(deadline.passed()).isFalse();
    assertThat(deadline.remaining()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void timesOutOnceTheDeadlineHasPassed() {
    AgreementDeadline deadline = AgreementDeadline.after(Duration.ZERO);
    assertThat(deadline.passed()).isTrue();
    assertThatExceptionOfType(TimeoutException.class)
        .isThrownBy(deadline::remainingNanos)
        .withMessage("The broker did not answer in time");
  }
}
