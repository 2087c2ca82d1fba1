package dev.matview.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

class RememberingSerializerTests {

  private final AtomicInteger calls = new AtomicInteger();

  private final Serializer<StringBuilder> counting =
      (topic, value) -> {
        this.calls.incrementAndGet();
        return value.toString().getBytes(StandardCharsets.UTF_8);
      };

  private final RememberingSerializer<StringBuilder> serializer =
      new RememberingSerializer<>(this.counting);

  @Test
  void handsBackTheBytesOfTheValueJustSerializedOnceWithoutSerializingAgain() {
    StringBuilder value = new StringBuilder("seven");
    byte[] first = this.serializer.serializeAndRemember("topic", value);
    assertThat(this.serializer.serialize("topic", value)).isSameAs(first);
    assertThat(this.calls).hasValue(1);
    assertThat(this.serializer.serialize("topic", value)).isNotSameAs(first).isEqualTo(first);
    assertThat(this.calls).hasValue(2);
  }

  @Test
  void serializesAnEqualValueThatIsAnotherObjectOrForAnotherTopic() {
    StringBuilder value = new StringBuilder("seven");
    this.serializer.serializeAndRemember("topic", value);
    assertThat(this.serializer.serialize("topic", new StringBuilder("eight")))
        .asString(StandardCharsets.UTF_8)
        .isEqualTo("eight");
    assertThat(this.serializer.serialize("other", value))
        .asString(StandardCharsets.UTF_8)
        .isEqualTo("seven");
    assertThat(this.calls).hasValue(3);
  }

  @Test
  void anotherThreadSerializesWhatThisOneRemembers() {
    StringBuilder value = new StringBuilder("seven");
    this.serializer.serializeAndRemember("topic", value);
    CompletableFuture.runAsync(() -> this.serializer.serialize("topic", value)).join();
    assertThat(this.calls).hasValue(2);
    this.serializer.serialize("topic", value);
    assertThat(this.calls).hasValue(2);
  }
}
