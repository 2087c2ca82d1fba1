package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Group instance ids: what Kafka accepts, and the defaults derived from host and state dir. */
class InstanceIdTests {

  @Test
  void acceptsLettersDigitsDotsUnderscoresAndDashes() {
    assertThat(InstanceId.isLegal("orders-1.eu_west")).isTrue();
    assertThat(InstanceId.isLegal("orders:1")).isFalse();
    assertThat(InstanceId.isLegal("orders 1")).isFalse();
    assertThat(InstanceId.isLegal("a".repeat(InstanceId.MAX_LENGTH + 1))).isFalse();
  }

  @Test
  void replacesEveryRunOfOtherCharactersByOneDash() {
    assertThat(InstanceId.derive("host:1", "/srv//matview state/"))
        .isEqualTo("host-1-srv-matview-state");
  }

  @Test
  void shortensTheStateDirToAHashWhenTheIdWouldBeTooLong() {
    String id = InstanceId.derive("host-1", "/" + "deep/".repeat(60));
    assertThat(id).matches("host-1-[0-9a-f]{8}");
    assertThat(InstanceId.derive("host-1", "/" + "deep/".repeat(60))).isEqualTo(id);
    assertThat(InstanceId.derive("host-1", "/" + "deeper/".repeat(60))).isNotEqualTo(id);
  }

  @Test
  void derivesIdsKafkaAccepts() {
    assertThat(InstanceId.isLegal(InstanceId.derive("h".repeat(300), "/tmp/streams"))).isTrue();
    assertThat(InstanceId.isLegal(InstanceId.derive("matview-1", "relative/dir"))).isTrue();
  }
}
