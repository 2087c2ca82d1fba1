package dev.matview.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

class SerializedAggregateTests {

  private final AtomicInteger calls = new AtomicInteger();

  private final Serde<Object> serde =
      SerializedAggregate.storeSerde(
          Serdes.serdeFrom(
              (topic, value) -> {
                this.calls.incrementAndGet();
                return value.getBytes(StandardCharsets.UTF_8);
              },
              (topic, bytes) -> new String(bytes, StandardCharsets.UTF_8)));

  @Test
  void writesTheBytesOfASerializedAggregateAsTheyAreWithoutSerializingAgain() {
    byte[] bytes = "seven".getBytes(StandardCharsets.UTF_8);
    assertThat(this.serde.serializer().serialize("changelog", SerializedAggregate.of(bytes)))
        .isSameAs(bytes);
    assertThat(this.calls).hasValue(0);
  }

  @Test
  void writesEachStoreTheBytesItIsGivenWhateverWasSerializedInBetween() {
    // Two tasks on one thread: each serializes its aggregate before either store writes it.
    Serializer<Object> store = this.serde.serializer();
    byte[] first = "seven".getBytes(StandardCharsets.UTF_8);
    byte[] second = "eight".getBytes(StandardCharsets.UTF_8);
    SerializedAggregate firstTask = SerializedAggregate.of(first);
    SerializedAggregate secondTask = SerializedAggregate.of(second);
    assertThat(store.serialize("first-changelog", firstTask)).isSameAs(first);
    assertThat(store.serialize("second-changelog", secondTask)).isSameAs(second);
    assertThat(this.calls).hasValue(0);
  }

  @Test
  void serializesAnyOtherValueAsAnAggregateAndReadsAggregates() {
    assertThat(this.serde.serializer().serialize("changelog", "eight"))
        .asString(StandardCharsets.UTF_8)
        .isEqualTo("eight");
    assertThat(this.calls).hasValue(1);
    Object read =
        this.serde.deserializer().deserialize("changelog", "nine".getBytes(StandardCharsets.UTF_8));
    assertThat(SerializedAggregate.<String>aggregate(read)).isEqualTo("nine");
  }

  @Test
  void putsNothingForNoBytes() {
    assertThat(SerializedAggregate.of(null)).isNull();
  }
}
