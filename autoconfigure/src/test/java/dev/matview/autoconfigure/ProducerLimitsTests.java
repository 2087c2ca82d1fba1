package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.kafka.config.KafkaStreamsConfiguration;

/** Tests for {@link ProducerLimits}. */
class ProducerLimitsTests {

  private final Map<String, Object> configs = new HashMap<>();

  ProducerLimitsTests() {
    this.configs.put("application.id", "shop-app");
    this.configs.put("bootstrap.servers", "127.0.0.1:9092");
  }

  @Test
  void limitsChangelogRecordsToTheProducersDefaultMaxRequestSize() {
    assertThat(ProducerLimits.changelogRecordLimit(streams(), "shop-app")).isEqualTo(1_048_576);
  }

  @Test
  void readsTheProducersOwnOverride() {
    this.configs.put("max.request.size", "200000");
    this.configs.put("producer.max.request.size", "65536");
    assertThat(ProducerLimits.maxRequestSize(streams(), "shop-app")).isEqualTo(65_536);
    assertThat(ProducerLimits.changelogRecordLimit(streams(), "shop-app")).isEqualTo(65_536);
  }

  @Test
  void takesTheInternalTopicsMaxMessageBytesWhenSmaller() {
    this.configs.put("topic.max.message.bytes", "500000");
    assertThat(ProducerLimits.changelogRecordLimit(streams(), "shop-app")).isEqualTo(500_000);
    this.configs.put("topic.max.message.bytes", "5000000");
    assertThat(ProducerLimits.changelogRecordLimit(streams(), "shop-app")).isEqualTo(1_048_576);
  }

  @Test
  void refusesAnInternalTopicsMaxMessageBytesThatIsNoNumberNamingTheProperty() {
    this.configs.put("topic.max.message.bytes", "1MB");
    assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
        .isThrownBy(() -> ProducerLimits.changelogRecordLimit(streams(), "shop-app"))
        .satisfies(
            refused ->
                assertThat(refused.getName())
                    .isEqualTo("spring.kafka.streams.properties.topic.max.message.bytes"));
  }

  private KafkaStreamsConfiguration streams() {
    return new KafkaStreamsConfiguration(new HashMap<>(this.configs));
  }
}
