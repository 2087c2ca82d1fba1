package dev.matview.sample;

import static dev.matview.sample.OrderViewsClient.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.broker.KraftBroker;
import dev.matview.devbroker.DevBroker;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.config.KafkaStreamsConfiguration;
import org.testcontainers.kafka.KafkaContainer;

/**
 * What {@link ContainersConfiguration} does, tried without Docker: a Kafka container declared with
 * {@code @ServiceConnection} is the one Kafka that every client of the sample connects to, Kafka
 * Streams and Matview's own (the topic checks, the peers' agreement, the dead letters) included,
 * while {@code spring.kafka.bootstrap-servers} names an address where no broker listens, and the
 * development broker that the sample enables stays off. The container here runs nothing: its
 * address is a real broker in this JVM.
 */
class ServiceConnectionTests {

  @TempDir static Path dir;

  private static KraftBroker broker;

  @BeforeAll
  static void startBroker() {
    broker = new KraftBroker(0, dir.resolve("kafka"));
    broker.start();
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void everyKafkaClientOfTheSampleConnectsToTheContainerOfTheServiceConnection() {
    try (ConfigurableApplicationContext app =
        SpringApplication.from(MatviewSampleApplication::main)
            .with(InProcessKafkaContainerConfiguration.class)
            .run(
                "--server.port=0",
                "--sample.generator.enabled=false",
                "--spring.kafka.bootstrap-servers=127.0.0.1:1",
                "--spring.kafka.streams.state-dir=" + dir.resolve("streams"))
            .getApplicationContext()) {
      List<String> address = List.of(broker.bootstrapServers());
      assertThat(app.getBeanProvider(DevBroker.class).getIfAvailable()).isNull();
      assertThat(app.getBean(KafkaConnectionDetails.class).getBootstrapServers())
          .isEqualTo(address);
      assertThat(
              app.getBean(KafkaStreamsConfiguration.class)
                  .asProperties()
                  .get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG))
          .isEqualTo(address);
      OrderViewsClient client =
          new OrderViewsClient(((WebServerApplicationContext) app).getWebServer().getPort());
      client.placeOrder("frank", "3.00", Instant.now());
      eventually(() -> assertThat(client.orders("frank")).isEqualTo(1));
    }
  }

  @TestConfiguration(proxyBeanMethods = false)
  static class InProcessKafkaContainerConfiguration {

    @Bean
    @ServiceConnection
    KafkaContainer kafka() {
      return new InProcessKafkaContainer(broker.bootstrapServers());
    }
  }

  /** A Kafka container that starts no container: its address is the broker in this JVM. */
  static final class InProcessKafkaContainer extends KafkaContainer {

    private final String bootstrapServers;

    InProcessKafkaContainer(String bootstrapServers) {
      super(ContainersConfiguration.IMAGE);
      this.bootstrapServers = bootstrapServers;
    }

    @Override
    public void start() {}

    @Override
    public void stop() {}

    @Override
    public String getBootstrapServers() {
      return this.bootstrapServers;
    }
  }
}
