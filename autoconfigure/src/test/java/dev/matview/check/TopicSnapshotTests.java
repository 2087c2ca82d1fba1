package dev.matview.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tests for how {@link TopicSnapshot} reads the topic configs the checks rely on. */
class TopicSnapshotTests {

  private final TopicSnapshot snapshot =
      TopicSnapshot.of(
          Map.of("listed", 3, "bracketed", 3, "plain", 3),
          Map.of(
              "bracketed",
              Map.of("cleanup.policy", "[Compact, DELETE]", "retention.ms", " 3600000 "),
              "plain",
              Map.of("cleanup.policy", "compact,,", "retention.ms", "forever")));

  @Test
  void readsTheCleanupPolicyInLowerCaseWithoutBracketsSpacesOrEmptyParts() {
    assertThat(this.snapshot.cleanupPolicy("bracketed")).containsExactly("compact", "delete");
    assertThat(this.snapshot.cleanupPolicy("plain")).containsExactly("compact");
  }

  @Test
  void readsNoCleanupPolicyForATopicWhoseConfigWasNotRead() {
    assertThat(this.snapshot.cleanupPolicy("listed")).isEmpty();
  }

  @Test
  void readsALimitAsANumberOrAsUnlimitedWhenItIsNotReadOrNotANumber() {
    assertThat(this.snapshot.limit("bracketed", "retention.ms")).isEqualTo(3_600_000);
    assertThat(this.snapshot.limit("plain", "retention.ms")).isEqualTo(TopicSnapshot.UNLIMITED);
    assertThat(this.snapshot.limit("bracketed", "retention.bytes"))
        .isEqualTo(TopicSnapshot.UNLIMITED);
  }
}
