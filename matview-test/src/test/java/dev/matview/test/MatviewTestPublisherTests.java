package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The slice's publisher writes records to the views' source topics as the views read them. */
@ShopIntegrationTest
class MatviewTestPublisherTests {

  private static final Instant MINUTE =
      Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(1));

  @Autowired MatviewTestPublisher publisher;

  @Autowired ViewAwaiter views;

  @Autowired Environment environment;

  @Test
  void publishesARecordThatTheViewsCountAndSaysWhereItWent() {
    RecordMetadata sent =
        this.publisher.publish("orders", "lena-1", Order.of("lena", 1, "12.50", MINUTE));

    assertThat(sent.topic()).isEqualTo("orders");
    assertThat(sent.partition()).isBetween(0, 1);
    assertThat(sent.offset()).isNotNegative();
    assertThat(this.views.awaitView("orders-per-customer", "lena", 1L)).isEqualTo(1L);
  }

  @Test
  void writesTheKeyAsTheViewsReadItTheValueAsJsonAndTheTimestampGiven() {
    Instant timestamp = MINUTE.plusSeconds(7);
    RecordMetadata sent =
        this.publisher.publish(
            "orders", "mallory-1", Order.of("mallory", 3, "1.25", MINUTE), timestamp);

    ConsumerRecord<String, String> record = readBack(sent);
    assertThat(record.key()).isEqualTo("mallory-1");
    assertThat(record.timestamp()).isEqualTo(timestamp.toEpochMilli());
    JsonNode value = JsonMapper.shared().readTree(record.value());
    assertThat(value.path("customer").asString()).isEqualTo("mallory");
    assertThat(value.path("quantity").asLong()).isEqualTo(3);
    assertThat(value.path("amount").decimalValue()).isEqualByComparingTo("1.25");
    assertThat(value.path("at").asString()).isEqualTo(MINUTE.toString());
  }

  @Test
  void publishesJsonTextAsItIsAndTombstones() {
    String json =
        "{\"orderId\": \"nina-1\", \"customer\": \"nina\", \"quantity\": 1, \"amount\": 2.00,"
            + " \"at\": \""
            + MINUTE
            + "\"}";
    this.publisher.publishRaw("orders", "nina-1", json.getBytes(StandardCharsets.UTF_8));
    RecordMetadata tombstone = this.publisher.publishRaw("orders", "nina-1", null);

    assertThat(readBack(tombstone).value()).isNull();
    assertThat(this.views.awaitView("orders-per-customer", "nina", 1L)).isEqualTo(1L);
  }

  @Test
  void refusesATopicNoViewReadsAndRecordsOfOtherTypes() {
    Order order = Order.of("oscar", 1, "1.00", MINUTE);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.publisher.publish("sales", "o-1", order))
        .withMessage(
            "No view reads topic 'sales'; the views read [orders]: publish into one of those");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.publisher.publish("orders", 42, order))
        .withMessage(
            "The views of topic 'orders' read record keys of type java.lang.String, not"
                + " java.lang.Integer: pass String.class as the key type");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.publisher.publish("orders", "o-1", "{\"customer\": \"oscar\"}"))
        .withMessage(
            "The views of topic 'orders' read values of type [dev.matview.test.Order], not"
                + " java.lang.String: pass one of those, or publish bytes with publishRaw");
  }

  private ConsumerRecord<String, String> readBack(RecordMetadata sent) {
    TopicPartition partition = new TopicPartition(sent.topic(), sent.partition());
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                this.environment.getRequiredProperty("spring.kafka.bootstrap-servers")),
            new StringDeserializer(),
            new StringDeserializer())) {
      consumer.assign(java.util.List.of(partition));
      consumer.seek(partition, sent.offset());
      for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofSeconds(30))) {
        if (record.offset() == sent.offset()) {
          return record;
        }
      }
    }
    throw new AssertionError("No record at " + sent + " within 30 seconds");
  }
}
