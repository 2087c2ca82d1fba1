package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.KafkaStreamsCustomizer;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;

/**
 * A re-keyed view's repartition topic exists before Kafka Streams is created, made as Kafka Streams
 * would make it, so that its consumer never asks for a topic the broker does not know.
 */
@EmbeddedKafka(partitions = 1)
@ExtendWith(OutputCaptureExtension.class)
class RepartitionTopicsIntegrationTests {

  private static final Duration WAIT = Duration.ofSeconds(60);

  private final AtomicReference<Set<String>> topicsAtCreation = new AtomicReference<>();

  @TempDir Path stateDir;

  private EmbeddedKafkaBroker broker;

  private Admin admin;

  @BeforeEach
  void connect(EmbeddedKafkaBroker broker) {
    this.broker = broker;
    this.admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()));
  }

  @AfterEach
  void disconnect() {
    this.admin.close(Duration.ofSeconds(5));
  }

  @Test
  void createsTheRepartitionTopicBeforeKafkaStreamsAsKafkaStreamsWould(CapturedOutput output)
      throws Exception {
    createTopic("fresh-sales", 3, Map.of());
    runner("fresh", "fresh-sales")
        .withPropertyValues("spring.kafka.streams.properties.topic.max.message.bytes=2000000")
        .run(
            (context) -> {
              assertThat(context).hasNotFailed();
              assertThat(this.topicsAtCreation.get()).contains("fresh-per-customer-repartition");
              assertThat(
                      this.admin
                          .describeTopics(List.of("fresh-per-customer-repartition"))
                          .allTopicNames()
                          .get()
                          .get("fresh-per-customer-repartition")
                          .partitions())
                  .hasSize(3);
              assertThat(configOf("fresh-per-customer-repartition"))
                  .containsEntry("cleanup.policy", "delete")
                  .containsEntry("retention.ms", "-1")
                  .containsEntry("segment.bytes", "52428800")
                  .containsEntry("message.timestamp.type", "CreateTime")
                  .containsEntry("max.message.bytes", "2000000");
              await().atMost(WAIT).until(() -> state(context) == KafkaStreams.State.RUNNING);
              assertThat(output.getAll()).doesNotContain("UNKNOWN_TOPIC_OR_PARTITION");
            });
  }

  @Test
  void leavesARepartitionTopicThatExistsAsItIs() throws Exception {
    createTopic("kept-sales", 2, Map.of());
    createTopic(
        "kept-per-customer-repartition",
        2,
        Map.of("segment.bytes", "1048576", "retention.ms", "-1"));
    runner("kept", "kept-sales")
        .run(
            (context) -> {
              assertThat(context).hasNotFailed();
              await().atMost(WAIT).until(() -> state(context) == KafkaStreams.State.RUNNING);
              assertThat(configOf("kept-per-customer-repartition"))
                  .containsEntry("segment.bytes", "1048576");
            });
  }

  private ApplicationContextRunner runner(String applicationId, String topic) {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(MatviewAutoConfiguration.class, KafkaAutoConfiguration.class))
        .withUserConfiguration(RekeyedViewConfiguration.class)
        .withBean(
            "recordTopicsAtCreation",
            KafkaStreamsCustomizer.class,
            () -> (streams) -> this.topicsAtCreation.set(topicNames()))
        .withPropertyValues(
            "spring.kafka.bootstrap-servers=" + this.broker.getBrokersAsString(),
            "spring.kafka.streams.application-id=" + applicationId,
            "spring.kafka.streams.state-dir=" + this.stateDir,
            "spring.kafka.streams.cleanup.on-shutdown=true",
            "matview.startup-checks.timeout=10s",
            "test.topic=" + topic);
  }

  private Set<String> topicNames() {
    try {
      return this.admin.listTopics().names().get();
    } catch (Exception ex) {
      throw new IllegalStateException(ex);
    }
  }

  private Map<String, String> configOf(String topic) throws Exception {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    Config config = this.admin.describeConfigs(List.of(resource)).all().get().get(resource);
    return config.entries().stream()
        .filter(entry -> entry.value() != null)
        .collect(
            java.util.stream.Collectors.toMap(
                org.apache.kafka.clients.admin.ConfigEntry::name,
                org.apache.kafka.clients.admin.ConfigEntry::value));
  }

  private void createTopic(String name, int partitions, Map<String, String> configs)
      throws Exception {
    this.admin
        .createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs)))
        .all()
        .get();
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .until(() -> this.admin.describeTopics(List.of(name)).allTopicNames().get() != null);
  }

  private static KafkaStreams.State state(org.springframework.context.ApplicationContext context) {
    KafkaStreams streams = context.getBean(StreamsBuilderFactoryBean.class).getKafkaStreams();
    return (streams != null) ? streams.state() : KafkaStreams.State.CREATED;
  }

  record Sale(String shop, String customer) {}

  @Configuration(proxyBeanMethods = false)
  static class RekeyedViewConfiguration {

    @MaterializedView("per-customer")
    ViewDefinition<String, Sale, Long> perCustomer(@Value("${test.topic}") String topic) {
      return Views.from(topic, Sale.class).groupBy(String.class, Sale::customer).count();
    }
  }
}
