package dev.matview.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The rules for the views' topics, checked against snapshots of what a broker would say. */
class ViewTopicChecksTests {

  private static final String APP = "shop";

  private static final String BOOTSTRAP = "broker-1:9092";

  private static final long DAY_MS = Duration.ofDays(1).toMillis();

  private final Map<String, Integer> partitions = new HashMap<>();

  private final Map<String, Map<String, String>> configs = new HashMap<>();

  @Test
  void asksForSourcesChangelogsAndRepartitionTopicsAndReadsTheInternalOnesConfigs() {
    ViewTopicChecks checks = checks(perShop(), perCustomer());
    assertThat(checks.topics())
        .containsExactly(
            "sales",
            "shop-per-shop-changelog",
            "shop-per-customer-repartition",
            "shop-per-customer-changelog");
    assertThat(checks.internalTopics())
        .containsExactly(
            "shop-per-shop-changelog",
            "shop-per-customer-repartition",
            "shop-per-customer-changelog");
  }

  @Test
  void findsNoProblemWhenOnlyTheSourceTopicExists() {
    topic("sales", 3);
    assertThat(checks(perShop(), perCustomer(), perMinute()).check(snapshot())).isEmpty();
  }

  @Test
  void findsNoProblemWithTopicsAsKafkaStreamsCreatesThem() {
    topic("sales", 3);
    topic("shop-per-shop-changelog", 3, "compact", "604800000", "-1");
    topic("shop-per-customer-repartition", 3, "delete", "-1", "-1");
    topic("shop-per-customer-changelog", 3, "compact", "604800000", "-1");
    topic("shop-per-minute-changelog", 3, "compact,delete", String.valueOf(2 * DAY_MS), "-1");
    assertThat(checks(perShop(), perCustomer(), perMinute()).check(snapshot())).isEmpty();
  }

  @Test
  void namesEveryViewOfAMissingSourceTopicOnceWithTheCommandAndTheBeanThatCreateIt() {
    List<TopicProblem> problems = checks(perShop(), perCustomer()).check(snapshot());
    assertThat(problems).hasSize(1);
    assertThat(problems.get(0).topic()).isEqualTo("sales");
    assertThat(problems.get(0).problem())
        .isEqualTo(
            "Source topic 'sales' of views 'per-shop', 'per-customer' does not exist, so Kafka"
                + " Streams cannot read it.");
    assertThat(problems.get(0).fix())
        .isEqualTo(
            "create it with kafka-topics.sh --bootstrap-server broker-1:9092 --create --topic"
                + " sales --partitions <partitions>, or declare it as a bean, which Spring Boot's"
                + " KafkaAdmin creates at start-up: @Bean NewTopic salesTopic() { return"
                + " TopicBuilder.name(\"sales\").partitions(<partitions>).build(); }");
  }

  @Test
  void namesTheBeanOfAMissingSourceTopicInCamelCase() {
    assertThat(checks(ofTopic("order.events-v2")).check(snapshot()))
        .singleElement()
        .extracting(TopicProblem::fix)
        .asString()
        .endsWith(
            "@Bean NewTopic orderEventsV2Topic() { return"
                + " TopicBuilder.name(\"order.events-v2\").partitions(<partitions>).build(); }");
  }

  @Test
  void asksWhetherAnExistingTopicOneEditAwayFromAMissingSourceWasMeant() {
    topic("sale", 3);
    topic("others", 3);
    assertThat(checks(perShop()).check(snapshot()))
        .singleElement()
        .extracting(TopicProblem::problem)
        .isEqualTo(
            "Source topic 'sales' of view 'per-shop' does not exist, so Kafka Streams cannot read"
                + " it. Did you mean 'sale'?");
  }

  @Test
  void suggestsTheClosestTopicsTheBrokerListedWithTheSameNameButForCaseAndSeparatorsAmongThem() {
    TopicSnapshot listed =
        snapshot()
            .withListed(
                Set.of("Customer_Events", "customer-event", "customer-events-v1", "orders"));
    assertThat(checks(ofTopic("customer-events")).check(listed))
        .singleElement()
        .extracting(TopicProblem::problem)
        .asString()
        .endsWith(" Did you mean 'Customer_Events' or 'customer-event'?");
  }

  @Test
  void suggestsNothingWhenNoExistingTopicIsClose() {
    topic("orders", 3);
    assertThat(checks(perShop()).check(snapshot().withListed(Set.of("shop-sales-dlq"))))
        .singleElement()
        .extracting(TopicProblem::problem)
        .asString()
        .endsWith("cannot read it.");
  }

  @Test
  void refusesATableChangelogThatDeletesOldRecords() {
    topic("sales", 3);
    topic("shop-per-shop-changelog", 3, "delete", "604800000", "-1");
    assertThat(checks(perShop()).check(snapshot()))
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.problem())
                  .startsWith(
                      "Changelog topic 'shop-per-shop-changelog' of table view 'per-shop' has"
                          + " cleanup.policy=delete");
              assertThat(problem.fix())
                  .isEqualTo(
                      "kafka-configs.sh --bootstrap-server broker-1:9092 --alter --entity-type"
                          + " topics --entity-name shop-per-shop-changelog --add-config"
                          + " cleanup.policy=compact");
            });
  }

  @Test
  void refusesATableChangelogThatCompactsAndDeletes() {
    topic("sales", 3);
    topic("shop-per-shop-changelog", 3, "compact, delete", "604800000", "-1");
    assertThat(checks(perShop()).check(snapshot()))
        .singleElement()
        .extracting(TopicProblem::problem)
        .asString()
        .contains("cleanup.policy=compact,delete");
  }

  @Test
  void refusesAWindowChangelogKeptShorterThanItsStoreAndTheAdditionalRetention() {
    topic("sales", 3);
    topic("shop-per-minute-changelog", 3, "compact,delete", "3600000", "-1");
    assertThat(checks(perMinute()).check(snapshot()))
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.problem())
                  .isEqualTo(
                      "Changelog topic 'shop-per-minute-changelog' of windowed view 'per-minute'"
                          + " has retention.ms=3600000, shorter than the 172800000 ms Kafka Streams"
                          + " needs (the store's retention of 86400000 ms plus"
                          + " windowstore.changelog.additional.retention.ms of 86400000 ms), so a"
                          + " restore would lose windows the store still holds.");
              assertThat(problem.fix()).endsWith("--add-config retention.ms=172800000");
            });
  }

  @Test
  void refusesASessionChangelogWithAPartitionSizeCap() {
    topic("sales", 3);
    topic("shop-sessions-changelog", 3, "compact,delete", "-1", "1073741824");
    assertThat(checks(sessions()).check(snapshot()))
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.problem())
                  .startsWith(
                      "Changelog topic 'shop-sessions-changelog' of session view 'sessions' has"
                          + " retention.bytes=1073741824");
              assertThat(problem.fix()).endsWith("--add-config retention.bytes=-1");
            });
  }

  @Test
  void acceptsAWindowChangelogThatOnlyCompacts() {
    topic("sales", 3);
    topic("shop-per-minute-changelog", 3, "compact", "3600000", "-1");
    assertThat(checks(perMinute()).check(snapshot())).isEmpty();
  }

  @Test
  void acceptsAWindowChangelogKeptForeverOrJustLongEnough() {
    topic("sales", 3);
    topic("shop-per-minute-changelog", 3, "delete", String.valueOf(DAY_MS), "-1");
    assertThat(checksWithAdditionalRetention(0, perMinute()).check(snapshot())).isEmpty();
    topic("shop-per-minute-changelog", 3, "delete", "-1", "-1");
    assertThat(checks(perMinute()).check(snapshot())).isEmpty();
  }

  @Test
  void refusesAChangelogWithOtherPartitionsThanItsSourceWithTheResetThatRebuildsTheViews() {
    topic("sales", 6);
    topic("others", 2);
    topic("shop-per-shop-changelog", 3, "compact", "-1", "-1");
    assertThat(checks(perShop(), ofOthers()).check(snapshot()))
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.problem())
                  .startsWith(
                      "Changelog topic 'shop-per-shop-changelog' of table view 'per-shop' has 3"
                          + " partitions but its source topic 'sales' has 6: they must be"
                          + " co-partitioned");
              assertThat(problem.fix())
                  .startsWith(
                      "kafka-streams-application-reset.sh --bootstrap-server broker-1:9092"
                          + " --application-id shop --input-topics sales,others ");
            });
  }

  @Test
  void refusesARepartitionTopicWithOtherPartitionsThanItsSource() {
    topic("sales", 3);
    topic("shop-per-customer-repartition", 4, "delete", "-1", "-1");
    assertThat(checks(perCustomer()).check(snapshot()))
        .singleElement()
        .extracting(TopicProblem::problem)
        .asString()
        .startsWith(
            "Repartition topic 'shop-per-customer-repartition' of view 'per-customer' has 4"
                + " partitions but its source topic 'sales' has 3");
  }

  @Test
  void refusesARepartitionTopicThatCompactsOrDeletesUnreadRecords() {
    topic("sales", 3);
    topic("shop-per-customer-repartition", 3, "compact", "-1", "-1");
    assertThat(checks(perCustomer()).check(snapshot()))
        .singleElement()
        .extracting(TopicProblem::fix)
        .asString()
        .endsWith("--add-config cleanup.policy=delete");
    topic("shop-per-customer-repartition", 3, "delete", "604800000", "-1");
    assertThat(checks(perCustomer()).check(snapshot()))
        .singleElement()
        .extracting(TopicProblem::fix)
        .asString()
        .endsWith("--add-config retention.ms=-1");
  }

  @Test
  void leavesTheInternalTopicsOfAViewWithoutSourceUnchecked() {
    topic("shop-per-shop-changelog", 3, "delete", "604800000", "-1");
    assertThat(checks(perShop()).check(snapshot()))
        .singleElement()
        .extracting(TopicProblem::topic)
        .isEqualTo("sales");
  }

  private void topic(String name, int count) {
    this.partitions.put(name, count);
  }

  private void topic(
      String name, int count, String cleanupPolicy, String retentionMs, String retentionBytes) {
    this.partitions.put(name, count);
    this.configs.put(
        name,
        Map.of(
            "cleanup.policy", cleanupPolicy,
            "retention.ms", retentionMs,
            "retention.bytes", retentionBytes));
  }

  private TopicSnapshot snapshot() {
    return TopicSnapshot.of(this.partitions, this.configs);
  }

  @SafeVarargs
  private static ViewTopicChecks checks(Map.Entry<String, ViewDefinition<?, ?, ?>>... views) {
    return checksWithAdditionalRetention(DAY_MS, views);
  }

  @SafeVarargs
  private static ViewTopicChecks checksWithAdditionalRetention(
      long additionalRetentionMs, Map.Entry<String, ViewDefinition<?, ?, ?>>... views) {
    Map<String, ViewDefinition<?, ?, ?>> definitions = new LinkedHashMap<>();
    for (Map.Entry<String, ViewDefinition<?, ?, ?>> view : views) {
      definitions.put(view.getKey(), view.getValue());
    }
    ViewRegistry registry =
        ViewRegistry.of(definitions, new ViewSerdes(JsonMapper.builder().build()), APP);
    return new ViewTopicChecks(registry.all(), APP, additionalRetentionMs, BOOTSTRAP);
  }

  private static Map.Entry<String, ViewDefinition<?, ?, ?>> perShop() {
    return Map.entry("per-shop", Views.from("sales", Sale.class).count());
  }

  private static Map.Entry<String, ViewDefinition<?, ?, ?>> perCustomer() {
    return Map.entry(
        "per-customer",
        Views.from("sales", Sale.class).groupBy(String.class, Sale::customer).count());
  }

  private static Map.Entry<String, ViewDefinition<?, ?, ?>> perMinute() {
    return Map.entry(
        "per-minute",
        Views.from("sales", Sale.class)
            .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
            .count());
  }

  private static Map.Entry<String, ViewDefinition<?, ?, ?>> sessions() {
    return Map.entry(
        "sessions",
        Views.from("sales", Sale.class)
            .windowedBy(ViewWindow.session(Duration.ofMinutes(5)))
            .count());
  }

  private static Map.Entry<String, ViewDefinition<?, ?, ?>> ofOthers() {
    return Map.entry("of-others", Views.from("others", Sale.class).count());
  }

  private static Map.Entry<String, ViewDefinition<?, ?, ?>> ofTopic(String topic) {
    return Map.entry("of-topic", Views.from(topic, Sale.class).count());
  }

  record Sale(String shop, String customer) {}
}
