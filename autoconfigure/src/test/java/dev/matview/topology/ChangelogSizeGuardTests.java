package dev.matview.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

/** Tests for {@link ChangelogSizeGuard}. */
class ChangelogSizeGuardTests {

  private static final int MAX_BYTES = 4096;

  private final ChangelogSizeGuard guard = new ChangelogSizeGuard("notes", MAX_BYTES);

  private final Serde<String> keys = this.guard.keys(Serdes.String());

  private final Serde<String> aggregates = this.guard.aggregates(Serdes.String());

  @Test
  void writesAnAggregateWhoseChangelogRecordFits() {
    this.keys.serializer().serialize("changelog", "alice");
    String fits = "a".repeat(MAX_BYTES - ChangelogSizeGuard.OVERHEAD - "alice".length());
    assertThat(this.aggregates.serializer().serialize("changelog", fits)).hasSize(fits.length());
  }

  @Test
  void refusesAnAggregateOneByteTooLargeNamingTheViewTheSizeAndTheLimit() {
    this.keys.serializer().serialize("changelog", "alice");
    String tooLarge = "a".repeat(MAX_BYTES - ChangelogSizeGuard.OVERHEAD - "alice".length() + 1);
    assertThatExceptionOfType(AggregateTooLargeException.class)
        .isThrownBy(() -> this.aggregates.serializer().serialize("changelog", tooLarge))
        .withMessageContaining("view 'notes'")
        .withMessageContaining((MAX_BYTES + 1) + " bytes")
        .withMessageContaining("limit of its changelog records, " + MAX_BYTES + " bytes")
        .satisfies(refused -> assertThat(refused.view()).isEqualTo("notes"));
  }

  @Test
  void countsTheKeyTheStoreWroteJustBefore() {
    String aggregate = "a".repeat(MAX_BYTES / 2);
    this.keys.serializer().serialize("changelog", "k");
    assertThat(this.aggregates.serializer().serialize("changelog", aggregate)).isNotNull();
    this.keys.serializer().serialize("changelog", "k".repeat(MAX_BYTES / 2));
    assertThatExceptionOfType(AggregateTooLargeException.class)
        .isThrownBy(() -> this.aggregates.serializer().serialize("changelog", aggregate));
  }

  @Test
  void readsWhatItWrote() {
    byte[] bytes = this.aggregates.serializer().serialize("changelog", "total");
    assertThat(this.aggregates.deserializer().deserialize("changelog", bytes)).isEqualTo("total");
  }
}
