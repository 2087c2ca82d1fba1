package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.health.RestoreLagTracker;
import dev.matview.kafka.ComposingKafkaStreams;
import dev.matview.query.routing.ReplicaDirectory;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.KafkaStreamsCustomizer;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;

/**
 * On a real broker, the state listener, restore listener and client supplier that a user's
 * configurer sets on spring-kafka's factory bean keep working next to Matview's: the user's state
 * listener hears Kafka Streams run, as Matview's replica directory and start-up summary do; the
 * user's restore listener hears each partition of a view restored from its changelog after
 * Matview's tracker, which tracks it, and before a restore listener bean; and the clients created
 * through the user's supplier are given none of Matview's keys. A customizer bean customizes the
 * Kafka Streams that Matview created.
 */
@EmbeddedKafka(partitions = 2, topics = FactoryBeanListenersIntegrationTests.TOPIC)
@ExtendWith(OutputCaptureExtension.class)
class FactoryBeanListenersIntegrationTests {

  static final String TOPIC = "listened-sales";

  private static final String APPLICATION_ID = "listened";

  private static final String VIEW = "per-shop";

  private static final String CHANGELOG = APPLICATION_ID + "-" + VIEW + "-changelog";

  private static final int HISTORY = 100;

  private static final Duration WAIT = Duration.ofSeconds(45);

  @TempDir Path stateDir;

  @Test
  void callsTheListenersAConfigurerSetOnTheFactoryBeanNextToMatviews(
      EmbeddedKafkaBroker broker, CapturedOutput output) throws Exception {
    writeHistoryToTheChangelog(broker);
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                MatviewAutoConfiguration.class,
                MatviewHealthAutoConfiguration.class,
                KafkaAutoConfiguration.class,
                ApplicationAvailabilityAutoConfiguration.class))
        .withUserConfiguration(ViewConfiguration.class, UserListenersConfiguration.class)
        .withPropertyValues(
            "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
            "spring.kafka.streams.application-id=" + APPLICATION_ID,
            "spring.kafka.streams.state-dir=" + this.stateDir,
            "spring.kafka.streams.cleanup.on-shutdown=true",
            "matview.startup-checks.enabled=false",
            "matview.peers.secret=0123456789abcdef0123456789abcdef")
        .run(
            (context) -> {
              assertThat(context).hasNotFailed();
              UserListenersConfiguration user = context.getBean(UserListenersConfiguration.class);
              await().atMost(WAIT).until(() -> user.states.contains(KafkaStreams.State.RUNNING));
              assertThat(context.getBean(ReplicaDirectory.class).state())
                  .isEqualTo(KafkaStreams.State.RUNNING);
              await()
                  .atMost(WAIT)
                  .until(() -> output.getAll().contains("Matview serves 1 view of application"));

              RestoreLagTracker tracker = context.getBean(RestoreLagTracker.class);
              for (int partition = 0; partition < 2; partition++) {
                assertThat(tracker.lag(VIEW, partition))
                    .hasValueSatisfying((lag) -> assertThat(lag.lag()).isZero());
              }
              assertThat(user.restores)
                  .filteredOn((event) -> event.startsWith("configured start"))
                  .containsExactlyInAnyOrder(
                      "configured start 0, tracked already", "configured start 1, tracked already");
              assertThat(user.restores)
                  .filteredOn((event) -> event.contains(" end "))
                  .containsExactlyInAnyOrder(
                      "configured end 0", "bean end 0", "configured end 1", "bean end 1")
                  .satisfies(
                      (ends) -> {
                        assertThat(ends.indexOf("configured end 0"))
                            .isLessThan(ends.indexOf("bean end 0"));
                        assertThat(ends.indexOf("configured end 1"))
                            .isLessThan(ends.indexOf("bean end 1"));
                      });

              assertThat(user.customized)
                  .singleElement()
                  .isSameAs(factoryBean(context).getKafkaStreams())
                  .isInstanceOf(ComposingKafkaStreams.class);

              RecordingClientSupplier clients = user.clients;
              assertThat(clients.configs).containsKeys("admin", "consumer", "restore consumer");
              clients.configs.values().stream()
                  .map(Map::keySet)
                  .forEach(
                      (keys) -> assertThat(keys).noneMatch((key) -> key.startsWith("matview.")));
            });
  }

  private static StreamsBuilderFactoryBean factoryBean(AssertableApplicationContext context) {
    return context.getBean(
        "&" + KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME,
        StreamsBuilderFactoryBean.class);
  }

  private static void writeHistoryToTheChangelog(EmbeddedKafkaBroker broker) throws Exception {
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(CHANGELOG, 2, (short) 1)
                      .configs(Map.of("cleanup.policy", "compact"))))
          .all()
          .get();
    }
    try (Producer<String, Long> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(broker), new StringSerializer(), new LongSerializer())) {
      for (int partition = 0; partition < 2; partition++) {
        for (long i = 0; i < HISTORY; i++) {
          producer.send(new ProducerRecord<>(CHANGELOG, partition, "shop-" + i, i));
        }
      }
    }
  }

  record Sale(String shop) {}

  @Configuration(proxyBeanMethods = false)
  static class ViewConfiguration {

    @MaterializedView(VIEW)
    ViewDefinition<String, Sale, Long> perShop() {
      return Views.from(TOPIC, Sale.class).count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserListenersConfiguration {

    final List<KafkaStreams.State> states = new CopyOnWriteArrayList<>();

    final List<String> restores = new CopyOnWriteArrayList<>();

    final RecordingClientSupplier clients = new RecordingClientSupplier();

    final List<KafkaStreams> customized = new CopyOnWriteArrayList<>();

    @Bean
    StreamsBuilderFactoryBeanConfigurer userListenersConfigurer(
        ObjectProvider<RestoreLagTracker> tracker) {
      return (factoryBean) -> {
        factoryBean.setStateListener((newState, oldState) -> this.states.add(newState));
        factoryBean.setStateRestoreListener(
            new RecordingRestoreListener("configured", this.restores, tracker));
        factoryBean.setClientSupplier(this.clients);
      };
    }

    @Bean
    KafkaStreamsCustomizer userCustomizer() {
      return this.customized::add;
    }

    @Bean
    StateRestoreListener userRestoreListener(ObjectProvider<RestoreLagTracker> tracker) {
      return new RecordingRestoreListener("bean", this.restores, tracker);
    }
  }

  /** Records the restores it hears, and whether Matview's tracker had heard of them first. */
  private record RecordingRestoreListener(
      String name, List<String> events, ObjectProvider<RestoreLagTracker> tracker)
      implements StateRestoreListener {

    @Override
    public void onRestoreStart(
        TopicPartition partition, String store, long startingOffset, long endingOffset) {
      boolean tracked = this.tracker.getObject().lag(store, partition.partition()).isPresent();
      this.events.add(
          "%s start %d, %s"
              .formatted(
                  this.name, partition.partition(), tracked ? "tracked already" : "not tracked"));
    }

    @Override
    public void onBatchRestored(
        TopicPartition partition, String store, long batchEndOffset, long numRestored) {}

    @Override
    public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
      this.events.add("%s end %d".formatted(this.name, partition.partition()));
    }
  }
}
