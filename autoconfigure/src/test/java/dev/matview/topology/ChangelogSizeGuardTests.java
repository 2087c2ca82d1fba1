package dev.matview.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

import org.junit.jupiter.api.Test;

/** Tests for {@link ChangelogSizeGuard}. */
class ChangelogSizeGuardTests {

  private static final int MAX_BYTES = 4096;

  private final ChangelogSizeGuard guard = new ChangelogSizeGuard("notes", MAX_BYTES);

  @Test
  void writesAnAggregateWhoseChangelogRecordFits() {
    int fits = MAX_BYTES - ChangelogSizeGuard.OVERHEAD - "alice".length();
    assertThatNoException().isThrownBy(() -> this.guard.check("alice".length(), fits));
  }

  @Test
  void refusesAnAggregateOneByteTooLargeNamingTheViewTheSizeAndTheLimit() {
    int tooLarge = MAX_BYTES - ChangelogSizeGuard.OVERHEAD - "alice".length() + 1;
    assertThatExceptionOfType(AggregateTooLargeException.class)
        .isThrownBy(() -> this.guard.check("alice".length(), tooLarge))
        .withMessageContaining("view 'notes'")
        .withMessageContaining((MAX_BYTES + 1) + " bytes")
        .withMessageContaining("limit of its changelog records, " + MAX_BYTES + " bytes")
        .satisfies(refused -> assertThat(refused.view()).isEqualTo("notes"));
  }

  @Test
  void countsTheKeyOfTheSameUpdate() {
    int aggregate = MAX_BYTES / 2;
    assertThatNoException().isThrownBy(() -> this.guard.check(1, aggregate));
    assertThatExceptionOfType(AggregateTooLargeException.class)
        .isThrownBy(() -> this.guard.check(MAX_BYTES / 2, aggregate));
  }
}
