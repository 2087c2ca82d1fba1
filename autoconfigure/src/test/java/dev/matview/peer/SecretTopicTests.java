package dev.matview.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Tests for the records of {@link SecretTopic}. */
class SecretTopicTests {

  @Test
  void readsBackTheSecretARecordValueHolds() {
    byte[] material = PeerSecret.randomMaterial();
    byte[] value = SecretTopic.value(material);
    assertThat(value).hasSize(1 + PeerSecret.MIN_BYTES);
    assertThat(SecretTopic.secret(value)).isEqualTo(material);
  }

  @Test
  void skipsValuesOfAnotherVersionOrLengthAndTombstones() {
    byte[] otherVersion = SecretTopic.value(PeerSecret.randomMaterial());
    otherVersion[0] = 2;
    byte[] valid = SecretTopic.value(PeerSecret.randomMaterial());
    assertThat(SecretTopic.secret(otherVersion)).isNull();
    assertThat(SecretTopic.secret(Arrays.copyOf(valid, valid.length - 1))).isNull();
    assertThat(SecretTopic.secret(Arrays.copyOf(valid, valid.length + 1))).isNull();
    assertThat(SecretTopic.secret(null)).isNull();
  }

  @Test
  void hasOnePartitionNamedForTheTopic() {
    assertThat(new SecretTopic("shop-matview-peers").partition())
        .hasToString("shop-matview-peers-0");
  }
}
