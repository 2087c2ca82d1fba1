package dev.matview.sample;

import static dev.matview.sample.OrderViewsClient.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.devbroker.DevBroker;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.testcontainers.DockerClientFactory;

/**
 * Runs the sample with the profile {@code compose}, on the Kafka of its {@code compose.yaml} that
 * Spring Boot's Docker Compose support starts; skipped where Docker or its Compose plugin is
 * missing.
 */
@EnabledIf("dockerComposeRuns")
class SampleComposeTests {

  @TempDir Path stateDir;

  @Test
  void servesTheViewsOnTheKafkaOfComposeYaml() {
    try (ConfigurableApplicationContext app =
        new SpringApplicationBuilder(MatviewSampleApplication.class)
            .profiles("compose")
            .run(
                "--server.port=0",
                "--sample.generator.enabled=false",
                "--spring.docker.compose.skip.in-tests=false",
                "--spring.docker.compose.stop.command=down",
                "--spring.kafka.streams.state-dir=" + this.stateDir)) {
      assertThat(app.getBeanProvider(DevBroker.class).getIfAvailable()).isNull();
      assertThat(app.getBean(KafkaConnectionDetails.class).getBootstrapServers())
          .containsExactly("localhost:9092");
      OrderViewsClient client =
          new OrderViewsClient(((WebServerApplicationContext) app).getWebServer().getPort());
      String customer = "compose-" + UUID.randomUUID();
      client.placeOrder(customer, "4.20", Instant.now());
      eventually(() -> assertThat(client.orders(customer)).isEqualTo(1));
    }
  }

  static boolean dockerComposeRuns() {
    if (!DockerClientFactory.instance().isDockerAvailable()) {
      return false;
    }
    try {
      Process version =
          new ProcessBuilder("docker", "compose", "version").redirectErrorStream(true).start();
      version.getInputStream().transferTo(OutputStream.nullOutputStream());
      return version.waitFor(30, TimeUnit.SECONDS) && version.exitValue() == 0;
    } catch (IOException ex) {
      return false;
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
