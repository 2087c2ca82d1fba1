package dev.matview.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;

/** With dead letters disabled, a record that cannot be read stops Kafka Streams with an error. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = {
      "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
      "spring.kafka.streams.application-id=dlq-fail-it",
      "spring.kafka.streams.state-dir=${java.io.tmpdir}/matview-dlq-fail-it-${random.uuid}",
      "spring.kafka.streams.cleanup.on-shutdown=true",
      "matview.dead-letter.enabled=false"
    })
@EmbeddedKafka(
    partitions = 1,
    topics = DeadLetterFailIntegrationTests.TOPIC,
    brokerProperties = "auto.create.topics.enable=false")
class DeadLetterFailIntegrationTests {

  static final String TOPIC = "orders";

  @Autowired EmbeddedKafkaBroker broker;

  @Autowired StreamsBuilderFactoryBean streams;

  @Test
  void stopsKafkaStreamsWithAnErrorAndCreatesNoDeadLetterTopic() throws Exception {
    await().atMost(Duration.ofSeconds(60)).until(() -> state() == KafkaStreams.State.RUNNING);
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.broker),
            new StringSerializer(),
            new StringSerializer())) {
      producer.send(new ProducerRecord<>(TOPIC, "o-1", "{not json"));
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> state() == KafkaStreams.State.ERROR);
    try (Admin admin =
        Admin.create(Map.of("bootstrap.servers", this.broker.getBrokersAsString()))) {
      assertThat(admin.listTopics().names().get()).doesNotContain("dlq-fail-it-dlq");
    }
  }

  private KafkaStreams.State state() {
    KafkaStreams kafkaStreams = this.streams.getKafkaStreams();
    return (kafkaStreams != null) ? kafkaStreams.state() : KafkaStreams.State.CREATED;
  }

  record Order(String customer) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class OrderViews {

    @MaterializedView("orders-per-customer")
    ViewDefinition<String, Order, Long> ordersPerCustomer() {
      return Views.from(TOPIC, Order.class).groupBy(String.class, Order::customer).count();
    }
  }
}
