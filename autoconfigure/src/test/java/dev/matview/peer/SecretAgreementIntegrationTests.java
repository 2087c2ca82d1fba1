package dev.matview.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/**
 * Instances agree on their secret through a compacted single-partition topic on a real broker:
 * those that start at once agree, later ones take the same, and a broker that refuses or does not
 * answer fails start-up with a message that names matview.peers.secret.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
class SecretAgreementIntegrationTests {

  @TempDir static Path stateDir;

  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private KafkaClusterTestKit cluster;

  @BeforeAll
  void startBrokerWithAnAuthorizer() throws Exception {
    this.cluster =
        new KafkaClusterTestKit.Builder(
                new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .build())
            .setConfigProp(
                "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")
            .setConfigProp("allow.everyone.if.no.acl.found", "true")
            .build();
    this.cluster.format();
    this.cluster.startup();
    this.cluster.waitForReadyBrokers();
    try (Admin admin = admin()) {
      admin
          .createAcls(
              List.of(
                  new AclBinding(
                      new ResourcePattern(
                          ResourceType.TOPIC,
                          SecretAgreement.topic("refused"),
                          PatternType.LITERAL),
                      new AccessControlEntry(
                          "User:ANONYMOUS", "*", AclOperation.ALL, AclPermissionType.DENY))))
          .all()
          .get(30, TimeUnit.SECONDS);
      admin
          .createTopics(List.of(new NewTopic("visits", 2, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
  }

  @AfterAll
  void stopBroker() throws Exception {
    if (this.cluster != null) {
      this.cluster.close();
    }
  }

  @Test
  void instancesThatStartAtOnceAgreeOnOneSecretAndLaterOnesTakeIt() throws Exception {
    int instances = 4;
    ExecutorService pool = Executors.newFixedThreadPool(instances);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<PeerSecret>> agreed = new ArrayList<>();
      for (int i = 0; i < instances; i++) {
        agreed.add(
            pool.submit(
                () -> {
                  start.await();
                  return new SecretAgreement(TIMEOUT).agree(streams("together"));
                }));
      }
      start.countDown();
      Set<String> fingerprints =
          agreed.stream().map(future -> fingerprint(get(future))).collect(Collectors.toSet());
      assertThat(fingerprints).hasSize(1);
      assertThat(fingerprint(new SecretAgreement(TIMEOUT).agree(streams("together"))))
          .isEqualTo(fingerprints.iterator().next());
    } finally {
      pool.shutdownNow();
    }
    try (Admin admin = admin()) {
      String topic = SecretAgreement.topic("together");
      assertThat(topic).isEqualTo("together-matview-peers");
      TopicDescription description =
          admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
      assertThat(description.partitions()).hasSize(1);
      ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
      Config config =
          admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
      assertThat(config.get("cleanup.policy").value()).isEqualTo("compact");
    }
  }

  @Test
  void failsNamingThePropertyWhenTheBrokerRefusesTheTopic() {
    String topic = SecretAgreement.topic("refused");
    assertThatExceptionOfType(PeerSecretException.class)
        .isThrownBy(() -> new SecretAgreement(TIMEOUT).agree(streams("refused")))
        .satisfies(
            ex -> {
              assertThat(ex.getDescription()).contains(topic, "refused to describe");
              assertThat(ex.getAction())
                  .contains("Set matview.peers.secret", "openssl rand -base64 32", topic);
            });
  }

  @Test
  void failsTheApplicationsStartUpSayingHowToFixItWhenTheBrokerRefusesTheTopic(
      CapturedOutput output) {
    assertThatExceptionOfType(RuntimeException.class)
        .isThrownBy(
            () ->
                new SpringApplicationBuilder(VisitViews.class)
                    .run(
                        "--spring.main.banner-mode=off",
                        "--spring.main.web-application-type=none",
                        "--spring.kafka.bootstrap-servers=" + this.cluster.bootstrapServers(),
                        "--spring.kafka.streams.application-id=refused",
                        "--spring.kafka.streams.state-dir=" + stateDir,
                        "--matview.peers.agreement-timeout=20s"))
        .satisfies(ex -> assertThat(ex).hasRootCauseInstanceOf(TopicAuthorizationException.class));
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("the broker refused to describe it")
        .contains("Set matview.peers.secret to one secret of at least 32 bytes");
  }

  @Test
  void failsNamingThePropertyWhenTheBrokerDoesNotAnswerInTime() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Properties streams = streams("unreachable");
    streams.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + closedPort);
    long started = System.nanoTime();
    assertThatExceptionOfType(PeerSecretException.class)
        .isThrownBy(() -> new SecretAgreement(Duration.ofSeconds(2)).agree(streams))
        .satisfies(
            ex -> {
              assertThat(ex.getDescription()).contains("within 2000 ms");
              assertThat(ex.getAction())
                  .contains("matview.peers.agreement-timeout", "set matview.peers.secret");
            });
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
  }

  private Properties streams(String applicationId) {
    Properties streams = new Properties();
    streams.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    streams.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, this.cluster.bootstrapServers());
    return streams;
  }

  private Admin admin() {
    return Admin.create(Map.of("bootstrap.servers", this.cluster.bootstrapServers()));
  }

  private static String fingerprint(PeerSecret secret) {
    return HexFormat.of()
        .formatHex(secret.key("fingerprint").mac("probe".getBytes(StandardCharsets.UTF_8)));
  }

  record Visit(String page) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class VisitViews {

    @MaterializedView("visits-per-page")
    ViewDefinition<String, Visit, Long> visitsPerPage() {
      return Views.from("visits", Visit.class).count();
    }
  }

  private static <T> T get(Future<T> future) {
    try {
      return future.get(60, TimeUnit.SECONDS);
    } catch (Exception ex) {
      throw new IllegalStateException(ex);
    }
  }
}
