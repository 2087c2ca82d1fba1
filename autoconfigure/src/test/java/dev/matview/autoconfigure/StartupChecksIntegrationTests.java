package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.check.StartupCheckException;
import dev.matview.rocksdb.RocksDBMemoryLimits;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.KafkaStreamsCustomizer;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;

/**
 * The views' topics are checked on a real broker before Kafka Streams is created: a problem stops
 * start-up with its fix and Kafka Streams never runs; healthy topics start, as a static member that
 * leaves the group at once on close.
 */
@EmbeddedKafka(partitions = 2)
@ExtendWith(OutputCaptureExtension.class)
class StartupChecksIntegrationTests {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private static final String UNUSED = "were supplied but are not used yet";

  private final AtomicInteger streamsCreated = new AtomicInteger();

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
  void failsWhenATableViewsChangelogDeletesOldRecordsAndNamesTheCommandThatFixesIt()
      throws Exception {
    createTopic("deleting-sales", 2, Map.of());
    createTopic("deleting-per-shop-changelog", 2, Map.of("cleanup.policy", "delete"));
    runner("deleting", "deleting-sales")
        .withUserConfiguration(TableViewConfiguration.class)
        .run(
            (context) -> {
              assertFailedWith(
                  context,
                  "Changelog topic 'deleting-per-shop-changelog' of table view 'per-shop' has"
                      + " cleanup.policy=delete, so the broker deletes old updates",
                  "kafka-configs.sh --bootstrap-server "
                      + this.broker.getBrokersAsString()
                      + " --alter --entity-type topics --entity-name deleting-per-shop-changelog"
                      + " --add-config cleanup.policy=compact");
              FailureAnalysis analysis =
                  new MatviewFailureAnalyzer(null).analyze(context.getStartupFailure());
              assertThat(analysis.getDescription())
                  .startsWith("Matview found a problem with the views' topics on ")
                  .contains("deleting-per-shop-changelog");
              assertThat(analysis.getAction()).contains("matview.startup-checks.enabled=false");
            });
  }

  @Test
  void failsWhenTheStoresOfEveryPartitionCannotFitTheMemoryBoundAndNamesTheSizeThatFits()
      throws Exception {
    createTopic("crowded-sales", 400, Map.of());
    runner("crowded", "crowded-sales")
        .withUserConfiguration(WindowedViewConfiguration.class)
        .withPropertyValues("matview.rocksdb.total-memory=8MB")
        .run(
            (context) -> {
              assertFailedWith(
                  context,
                  "The views need up to 1200 RocksDB stores in one instance ('per-minute' 1200;",
                  "matview.rocksdb.total-memory=8MB with matview.rocksdb.write-buffer-ratio=0.25"
                      + " leaves 2MB for memtables, and every open store holds at least 12KB of"
                      + " them: only 149 stores fit",
                  "Set matview.rocksdb.total-memory to at least 65MB");
              FailureAnalysis analysis =
                  new MatviewFailureAnalyzer(null).analyze(context.getStartupFailure());
              assertThat(analysis.getAction()).contains("matview.rocksdb.bounded=false");
            });
  }

  @Test
  void failsWhenTheSourceTopicIsMissingAskingWhetherATopicOneEditAwayWasMeant() throws Exception {
    createTopic("missing-sale", 2, Map.of());
    runner("missing", "missing-sales")
        .withUserConfiguration(TableViewConfiguration.class)
        .run(
            (context) ->
                assertFailedWith(
                    context,
                    "Source topic 'missing-sales' of view 'per-shop' does not exist, so Kafka"
                        + " Streams cannot read it. Did you mean 'missing-sale'?",
                    "kafka-topics.sh --bootstrap-server "
                        + this.broker.getBrokersAsString()
                        + " --create --topic missing-sales --partitions <partitions>",
                    "@Bean NewTopic missingSalesTopic()"));
  }

  @Test
  void failsWhenAWindowedViewsChangelogIsKeptShorterThanItsWindows() throws Exception {
    createTopic("short-sales", 2, Map.of());
    createTopic(
        "short-per-minute-changelog",
        2,
        Map.of("cleanup.policy", "compact,delete", "retention.ms", "3600000"));
    runner("short", "short-sales")
        .withUserConfiguration(WindowedViewConfiguration.class)
        .run(
            (context) ->
                assertFailedWith(
                    context,
                    "Changelog topic 'short-per-minute-changelog' of windowed view 'per-minute'"
                        + " has retention.ms=3600000, shorter than the 172800000 ms",
                    "--entity-name short-per-minute-changelog --add-config"
                        + " retention.ms=172800000"));
  }

  @Test
  void failsWhenARepartitionTopicIsNotCoPartitionedWithItsSource() throws Exception {
    createTopic("rekeyed-sales", 2, Map.of());
    createTopic("rekeyed-per-customer-repartition", 3, Map.of());
    runner("rekeyed", "rekeyed-sales")
        .withUserConfiguration(RekeyedViewConfiguration.class)
        .run(
            (context) ->
                assertFailedWith(
                    context,
                    "Repartition topic 'rekeyed-per-customer-repartition' of view 'per-customer'"
                        + " has 3 partitions but its source topic 'rekeyed-sales' has 2",
                    "kafka-streams-application-reset.sh --bootstrap-server "
                        + this.broker.getBrokersAsString()
                        + " --application-id rekeyed --input-topics rekeyed-sales"));
  }

  @Test
  void startsWithHealthyTopicsAsAStaticMemberThatLeavesTheGroupAtOnceOnClose(CapturedOutput output)
      throws Exception {
    createTopic("healthy-sales", 2, Map.of());
    createTopic("healthy-per-shop-changelog", 2, Map.of("cleanup.policy", "compact"));
    runner("healthy", "healthy-sales")
        .withUserConfiguration(TableViewConfiguration.class, RekeyedViewConfiguration.class)
        .withPropertyValues("matview.instance-id=healthy-1")
        .run(
            (context) -> {
              assertThat(context).hasNotFailed();
              assertThat(this.streamsCreated).hasValue(1);
              assertThat(context.getBean(StreamsBuilderFactoryBean.class).getStreamsConfiguration())
                  .containsEntry(RocksDBMemoryLimits.PLANNED_STORES_CONFIG, 4L)
                  .doesNotContainKey(RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG);
              assertThat(output).contains("in the bound, memtables flushed at 64 MB");
              await()
                  .atMost(WAIT)
                  .until(() -> kafkaStreams(context).state() == KafkaStreams.State.RUNNING);
              assertThat(members("healthy"))
                  .extracting(member -> member.groupInstanceId().orElse(""))
                  .singleElement()
                  .asString()
                  .startsWith("healthy-1-");
              await()
                  .atMost(WAIT)
                  .until(() -> output.getAll().contains("Matview serves 2 views of application"));
              assertThat(output)
                  .contains("per-shop      table  healthy-sales")
                  .contains("healthy-per-shop-changelog");
              assertThat(output.getAll().lines().filter((line) -> line.contains(UNUSED)))
                  .noneMatch((line) -> line.matches(".*[\\[ ]matview\\..*"));
              context.close();
              await().atMost(Duration.ofSeconds(15)).until(() -> members("healthy").isEmpty());
            });
  }

  @Test
  void skipsTheChecksWhenTheyAreDisabled() {
    runner("unchecked", "unchecked-sales")
        .withUserConfiguration(TableViewConfiguration.class)
        .withPropertyValues("matview.startup-checks.enabled=false")
        .run(
            (context) -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(StartupChecksLifecycle.class);
              assertThat(this.streamsCreated).hasValue(1);
            });
  }

  @Test
  void failsWithinTheTimeoutNamingTheBootstrapServersPropertyWhenNoBrokerAnswers() {
    long start = System.nanoTime();
    runner("unreachable", "unreachable-sales")
        .withUserConfiguration(TableViewConfiguration.class)
        .withPropertyValues(
            "spring.kafka.bootstrap-servers=127.0.0.1:1", "matview.startup-checks.timeout=1s")
        .run(
            (context) ->
                assertFailedWith(
                    context,
                    "Matview could not reach Kafka at 127.0.0.1:1 within 1000 ms",
                    "Check spring.kafka.bootstrap-servers"));
    // Far below the default timeout of 30 s, and loose enough for a busy machine.
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
  }

  private ApplicationContextRunner runner(String applicationId, String topic) {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(MatviewAutoConfiguration.class, KafkaAutoConfiguration.class))
        .withBean("countKafkaStreams", KafkaStreamsCustomizer.class, CountingCustomizer::new)
        .withPropertyValues(
            "spring.kafka.bootstrap-servers=" + this.broker.getBrokersAsString(),
            "spring.kafka.streams.application-id=" + applicationId,
            "spring.kafka.streams.state-dir=" + this.stateDir,
            "spring.kafka.streams.cleanup.on-shutdown=true",
            "matview.startup-checks.timeout=10s",
            "test.topic=" + topic);
  }

  private void assertFailedWith(AssertableApplicationContext context, String... parts) {
    assertThat(context).hasFailed();
    assertThat(checkFailure(context.getStartupFailure())).hasMessageContainingAll(parts);
    assertThat(this.streamsCreated).hasValue(0);
  }

  private static StartupCheckException checkFailure(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof StartupCheckException checkFailure) {
        return checkFailure;
      }
    }
    throw new AssertionError("No StartupCheckException among the causes of " + failure, failure);
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

  private List<MemberDescription> members(String group) throws Exception {
    ConsumerGroupDescription description =
        this.admin.describeConsumerGroups(List.of(group)).all().get().get(group);
    return List.copyOf(description.members());
  }

  private static KafkaStreams kafkaStreams(AssertableApplicationContext context) {
    KafkaStreams streams =
        context
            .getBean(
                "&" + KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME,
                StreamsBuilderFactoryBean.class)
            .getKafkaStreams();
    assertThat(streams).isNotNull();
    return streams;
  }

  /** Counts the Kafka Streams instances the factory bean creates, each customized once. */
  private final class CountingCustomizer implements KafkaStreamsCustomizer {

    @Override
    public void customize(KafkaStreams kafkaStreams) {
      StartupChecksIntegrationTests.this.streamsCreated.incrementAndGet();
    }
  }

  record Sale(String shop, String customer) {}

  @Configuration(proxyBeanMethods = false)
  static class TableViewConfiguration {

    @MaterializedView("per-shop")
    ViewDefinition<String, Sale, Long> perShop(@Value("${test.topic}") String topic) {
      return Views.from(topic, Sale.class).count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class RekeyedViewConfiguration {

    @MaterializedView("per-customer")
    ViewDefinition<String, Sale, Long> perCustomer(@Value("${test.topic}") String topic) {
      return Views.from(topic, Sale.class).groupBy(String.class, Sale::customer).count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class WindowedViewConfiguration {

    @MaterializedView("per-minute")
    ViewDefinition<String, Sale, Long> perMinute(@Value("${test.topic}") String topic) {
      return Views.from(topic, Sale.class)
          .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
          .count();
    }
  }
}
