package dev.matview.sample;

import static dev.matview.sample.OrderViewsClient.assertThatRevenue;
import static dev.matview.sample.OrderViewsClient.eventually;
import static dev.matview.sample.OrderViewsClient.revenue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.sample.OrderViewsClient.CountWindow;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/** Runs the sample app against a Kafka broker in a container; skipped where Docker is missing. */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(
    webEnvironment = WebEnvironment.RANDOM_PORT,
    properties = {"sample.embedded-kafka.enabled=false", "sample.generator.enabled=false"})
@DirtiesContext
class SampleApplicationContainerTests {

  @Container static final KafkaContainer kafka = new KafkaContainer("apache/kafka:4.1.1");

  @TempDir static Path stateDir;

  @LocalServerPort int port;

  @DynamicPropertySource
  static void kafkaInTheContainer(DynamicPropertyRegistry registry) {
    registry.add("spring.kafka.bootstrap-servers", kafka::getBootstrapServers);
    registry.add("spring.kafka.streams.state-dir", () -> stateDir.toString());
  }

  @Test
  void servesEveryViewOfTheOrdersPlaced() {
    OrderViewsClient client = new OrderViewsClient(this.port);
    Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES);
    client.placeOrder("erin", "10.00", minute.plusSeconds(10));
    client.placeOrder("erin", "2.50", minute.plusSeconds(20));
    eventually(
        () -> {
          assertThat(client.orders("erin")).isEqualTo(2);
          assertThatRevenue(client.revenue("erin")).isEqualTo(revenue(2, "12.50", "10.00"));
          assertThat(client.ordersPerMinute("erin", minute, minute))
              .containsExactly(CountWindow.minute(minute, 2));
        });
  }
}
