package dev.matview.sample;

import static dev.matview.sample.OrderViewsClient.assertThatRevenue;
import static dev.matview.sample.OrderViewsClient.eventually;
import static dev.matview.sample.OrderViewsClient.revenue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.devbroker.DevBroker;
import dev.matview.sample.OrderViewsClient.CountWindow;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/**
 * Runs the sample as {@link TestMatviewSampleApplication} does, on Kafka in a container declared
 * with {@code @ServiceConnection}; skipped where Docker is missing.
 */
@Testcontainers(disabledWithoutDocker = true)
class SampleApplicationContainerTests {

  @TempDir Path stateDir;

  @Test
  void servesEveryViewOfTheOrdersPlacedOnKafkaInTheContainer() {
    try (ConfigurableApplicationContext app =
        TestMatviewSampleApplication.run(
            "--server.port=0",
            "--sample.generator.enabled=false",
            "--spring.kafka.streams.state-dir=" + this.stateDir)) {
      assertThat(app.getBeanProvider(DevBroker.class).getIfAvailable()).isNull();
      assertThat(app.getBean(KafkaConnectionDetails.class).getBootstrapServers())
          .containsExactly(app.getBean(KafkaContainer.class).getBootstrapServers());
      OrderViewsClient client =
          new OrderViewsClient(((WebServerApplicationContext) app).getWebServer().getPort());
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
}
