package dev.matview.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.HttpProbe.Answer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;

/**
 * The README's own app, run as the README runs it, answers what the README promises; then the
 * sample joins its broker, as the README's second instance joins the first's, and every {@code
 * curl} command of the README and the guide reaches an endpoint of it. The class runs beside the
 * others, its tests one after the other.
 */
@Execution(ExecutionMode.CONCURRENT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RunningAppsTests {

  private static final String LOOKUP = "/views/orders-per-customer/keys/customer-1";

  private static final Duration START = Duration.ofSeconds(90);

  @TempDir static Path dir;

  private RunningApp readmeApp;

  @BeforeAll
  void startTheReadmesApp() throws Exception {
    this.readmeApp = ReadmeApp.start(dir);
  }

  @AfterAll
  void stopTheReadmesApp() {
    if (this.readmeApp != null) {
      this.readmeApp.close();
    }
  }

  @Test
  @Order(1)
  @Execution(ExecutionMode.SAME_THREAD)
  void theReadmesAppRunsOnTheDevelopmentBrokerAndAnswersAsPromised() {
    KafkaConnectionDetails broker = this.readmeApp.context().getBean(KafkaConnectionDetails.class);
    assertThat(broker.getClass().getName())
        .as("the connection of the app that the README's command runs")
        .startsWith("dev.matview.devbroker.");
    HttpProbe http = this.readmeApp.http();
    await("the README's 404 before the first order")
        .atMost(START)
        .untilAsserted(
            () -> {
              Answer answer = http.get(LOOKUP);
              assertThat(answer.status()).as(answer.describe()).isEqualTo(404);
              assertThat(answer.json().path("type").asString()).endsWith("/key-not-found");
            });

    publishThreeOrdersOfCustomer1(bootstrapServers());

    String promised = ReadmeApp.promisedAnswer(LOOKUP);
    await("the README's answer after three orders")
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> assertThat(http.get(LOOKUP).body()).isEqualToIgnoringWhitespace(promised));
  }

  @Test
  @Order(2)
  @Execution(ExecutionMode.SAME_THREAD)
  void everyCurlCommandReachesAnEndpointOfTheSample() throws Exception {
    List<CurlRequest> requests = CurlChecks.requests();
    try (RunningApp sample = startTheSample()) {
      HttpProbe http = sample.http();
      await("the sample's views")
          .atMost(START)
          .untilAsserted(
              () -> assertThat(http.get("/actuator/health/matview").status()).isEqualTo(200));
      List<String> problems = new ArrayList<>();
      requests.forEach(request -> CurlChecks.problem(http, request).ifPresent(problems::add));
      assertThat(problems).isEmpty();
      for (String wrong :
          List.of("curl localhost:8080/viewz", "curl localhost:8080/views/v/kees/1")) {
        assertThat(
                CurlChecks.problem(
                    http, CurlRequest.of("a made-up page", ShellCommands.of(wrong).get(0))))
            .as("the check of %s, which names no endpoint", wrong)
            .isPresent();
      }
    }
    assertThat(requests).as("curl commands sent").hasSize(CurlChecks.curlLines());
  }

  private RunningApp startTheSample() throws ClassNotFoundException {
    return RunningApp.start(
        SampleClasses.loader(),
        SampleClasses.APPLICATION,
        List.of(
            "--sample.embedded-kafka.enabled=false",
            "--sample.generator.enabled=false",
            "--spring.kafka.bootstrap-servers=" + bootstrapServers(),
            "--spring.main.banner-mode=off",
            "--server.port=0",
            "--spring.kafka.streams.state-dir=" + dir.resolve("sample-kafka-streams")));
  }

  private String bootstrapServers() {
    return String.join(
        ",", this.readmeApp.context().getBean(KafkaConnectionDetails.class).getBootstrapServers());
  }

  private static void publishThreeOrdersOfCustomer1(String bootstrapServers) {
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
            new StringSerializer(),
            new StringSerializer())) {
      for (int n = 1; n <= 3; n++) {
        producer.send(
            new ProducerRecord<>(
                "orders",
                "order-" + n,
                "{\"orderId\":\"order-"
                    + n
                    + "\",\"customerId\":\"customer-1\",\"amount\":12.50,"
                    + "\"ts\":\"2026-12-01T10:00:00Z\"}"));
      }
    }
  }
}
