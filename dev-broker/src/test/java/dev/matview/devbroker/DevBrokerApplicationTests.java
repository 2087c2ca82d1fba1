package dev.matview.devbroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

import dev.matview.devbroker.app.OrdersApplication;
import dev.matview.processes.http.HttpProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaStreamsConfiguration;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * A user's application with the development broker on its classpath: with the property, every Kafka
 * client of the application, Matview's included, finds the broker through its connection details
 * alone, while {@code spring.kafka.bootstrap-servers} names an address where no broker listens;
 * without it, nothing starts and the application fails as it would without the dependency.
 */
class DevBrokerApplicationTests {

  /**
   * Where no broker listens: a client that read {@code spring.kafka.bootstrap-servers} finds none.
   */
  private static final String NO_BROKER = "127.0.0.1:1";

  private static final String APPLICATION_ID = "dev-broker-app";

  @TempDir Path stateDir;

  @Test
  void servesTheViewsOfAnApplicationThatNamesNoBrokerOfItsOwn() throws Exception {
    try (ConfigurableApplicationContext app =
        start("--matview.dev-broker.enabled=true", "--matview.dev-broker.keep-data=false")) {
      DevBroker broker = app.getBean(DevBroker.class);
      List<String> address = broker.getBootstrapServers();
      assertThat(app.getBean(KafkaConnectionDetails.class)).isSameAs(broker);
      assertThat(broker.dataDir()).startsWith(Path.of("target").toAbsolutePath());
      assertThat(
              app.getBean(KafkaStreamsConfiguration.class)
                  .asProperties()
                  .get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG))
          .isEqualTo(address);

      @SuppressWarnings("unchecked")
      KafkaTemplate<String, String> kafka = app.getBean(KafkaTemplate.class);
      for (int i = 1; i <= 3; i++) {
        String order = "{\"orderId\":\"o-" + i + "\",\"customerId\":\"c-1\",\"amount\":1.5}";
        kafka.send(OrdersApplication.TOPIC, "o-" + i, order).get(30, TimeUnit.SECONDS);
      }
      HttpProbe http = HttpProbe.localhost(port(app));
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                HttpProbe.Answer answer =
                    http.get("/views/" + OrdersApplication.ORDERS_PER_CUSTOMER + "/keys/c-1");
                assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
                assertThat(answer.json().required("value").asLong()).isEqualTo(3);
              });
      try (Admin admin =
          Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, address.get(0)))) {
        assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
            .as("the views' topic, the peers' agreement topic and the dead letters' topic")
            .contains(
                OrdersApplication.TOPIC,
                APPLICATION_ID + "-matview-peers",
                APPLICATION_ID + "-dlq");
      }
    }
  }

  @Test
  void deletesTheBrokersDataWhenTheApplicationStopsUnlessItIsKept() {
    Path dataDir;
    try (ConfigurableApplicationContext app =
        start("--matview.dev-broker.enabled=true", "--matview.dev-broker.keep-data=false")) {
      dataDir = app.getBean(DevBroker.class).dataDir();
      assertThat(dataDir.resolve("meta.properties")).isRegularFile();
    }
    assertThat(Files.exists(dataDir)).as("%s after the application stopped", dataDir).isFalse();
  }

  @Test
  void withoutThePropertyStartsNoBrokerAndFailsAsAnApplicationWithoutOne() {
    assertThatException()
        .isThrownBy(
            () ->
                start("--matview.startup-checks.timeout=1s", "--matview.peers.agreement-timeout=1s")
                    .close())
        .withStackTraceContaining(NO_BROKER);
  }

  private ConfigurableApplicationContext start(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--server.port=0",
                "--spring.kafka.bootstrap-servers=" + NO_BROKER,
                "--spring.kafka.admin.operation-timeout=1s",
                "--spring.kafka.streams.application-id=" + APPLICATION_ID,
                "--spring.kafka.streams.state-dir=" + this.stateDir,
                "--matview.advertised-host=localhost"));
    args.addAll(List.of(more));
    return new SpringApplicationBuilder(OrdersApplication.class).run(args.toArray(String[]::new));
  }

  private static int port(ConfigurableApplicationContext app) {
    return ((WebServerApplicationContext) app).getWebServer().getPort();
  }
}
