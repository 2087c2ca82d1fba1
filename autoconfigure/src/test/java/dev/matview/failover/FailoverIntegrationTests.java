package dev.matview.failover;

import static dev.matview.failover.ViewInstance.PER_CUSTOMER;
import static dev.matview.failover.ViewInstance.PER_MINUTE;
import static dev.matview.processes.http.HttpProbe.encode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.failover.OrderHistory.Window;
import dev.matview.health.PartitionLag;
import dev.matview.processes.http.HttpProbe;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.TaskId;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Two instances share the partitions of a count view and a windowed view of a few thousand keys;
 * one of them stops, and the other answers every key exactly. Its {@code RestoreLagTracker} says
 * how it got there: with a standby replica it had a warm copy of the partitions it took over and
 * restored (next to) nothing; without one it replayed their changelogs. An instance restarted with
 * its state dir wiped rebuilds a warm copy from the changelogs while the other instance keeps
 * answering every key.
 *
 * <p>Each test has an application and a source topic of its own on one broker, and publishes the
 * orders only once both instances have their partitions: with empty changelogs every instance is
 * caught up, so Kafka Streams shares the partitions out evenly.
 */
@EmbeddedKafka(partitions = FailoverIntegrationTests.PARTITIONS)
class FailoverIntegrationTests {

  static final int PARTITIONS = 5;

  private static final Instant FIRST =
      Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(20));

  private static final OrderHistory HISTORY =
      OrderHistory.generate(6000, 3000, FIRST, Duration.ofMinutes(5));

  private static final Instant FROM = FIRST.minus(Duration.ofMinutes(5));

  private static final Instant TO = FIRST.plus(Duration.ofMinutes(10));

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(6);

  private static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(2);

  private static final String SERVED_BY = "Matview-Served-By";

  private static final JsonMapper LINES = JsonMapper.builder().build();

  @TempDir Path stateDirs;

  private final List<ViewInstance> instances = new ArrayList<>();

  private String brokers = "";

  @BeforeEach
  void rememberTheBroker(EmbeddedKafkaBroker broker) {
    this.brokers = broker.getBrokersAsString();
  }

  @AfterEach
  void closeInstances() {
    this.instances.stream().filter(ViewInstance::running).forEach(ViewInstance::close);
  }

  /**
   * A clean close leaves the group at once; the survivor promotes its standbys of the closed
   * instance's partitions and has no records to restore.
   */
  @Test
  void aWarmStandbyTakesOverFromAnInstanceThatClosesCleanly() throws Exception {
    Scenario scenario = scenario("failover-clean", "--matview.standby-replicas=1");
    List<ViewInstance> pair = startTwoAndPublish(scenario);
    ViewInstance owner = ownerOfMostPartitions(scenario, pair);
    ViewInstance survivor = other(pair, owner);
    Set<Integer> moved = owner.activePartitions(scenario.topic());
    Map<TopicPartition, Long> ends = changelogEnds(scenario);
    awaitStandbysCaughtUp(survivor, moved, ends);

    owner.close();

    Answers answers = new Answers();
    awaitEveryValueFrom(List.of(survivor), answers);
    answers.assertOnlyRetryableRefusals();
    assertLookupsAnsweredBy(survivor, survivor);
    assertRestoredFromAWarmStandby(scenario, survivor, moved, ends);
  }

  /**
   * An instance whose Kafka Streams closes without leaving the group keeps its partitions, and they
   * answer 503, until the broker has missed its heartbeats for {@code session.timeout.ms} (6 s
   * here); then the survivor promotes its standbys of them and has no records to restore.
   *
   * <p>This is not a {@code kill -9}, which this JVM cannot do to one of its own applications. What
   * the group and the survivor see is the same: the member stops heartbeating without leaving, and
   * the survivor waits for the session timeout before taking over. What differs lies with the
   * closed instance: it still finishes its work as a clean shutdown does, committing its offsets,
   * flushing its stores and writing their checkpoints, and its HTTP port closes at once. A killed
   * process does none of this: the survivor reprocesses the records after the last commit (with
   * at-least-once processing a count can then be too high, until exactly-once is configured), and
   * the killed instance itself, when it restarts, has no checkpoints for what it wrote since the
   * last commit and restores more.
   */
  @Test
  void aWarmStandbyTakesOverAfterTheSessionTimeoutFromAnInstanceThatDoesNotLeaveTheGroup()
      throws Exception {
    Scenario scenario = scenario("failover-abrupt", "--matview.standby-replicas=1");
    List<ViewInstance> pair = startTwoAndPublish(scenario);
    ViewInstance owner = ownerOfMostPartitions(scenario, pair);
    ViewInstance survivor = other(pair, owner);
    Set<Integer> moved = owner.activePartitions(scenario.topic());
    Map<TopicPartition, Long> ends = changelogEnds(scenario);
    awaitStandbysCaughtUp(survivor, moved, ends);
    String keyOfTheOwner = HISTORY.customersByPartition(PARTITIONS).get(first(moved)).get(0);

    long closing = System.nanoTime();
    owner.closeWithoutLeavingTheGroup();

    HttpProbe.Answer stillTheOwners =
        survivor.http().get("/views/" + PER_CUSTOMER + "/keys/" + encode(keyOfTheOwner));
    assertThat(stillTheOwners.status()).as(stillTheOwners.describe()).isEqualTo(503);
    assertThat(stillTheOwners.header("Retry-After")).matches("[1-9][0-9]*");
    Answers answers = new Answers();
    awaitEveryValueFrom(List.of(survivor), answers);
    Duration takeOver = Duration.ofNanos(System.nanoTime() - closing);
    answers.assertOnlyRetryableRefusals();
    assertThat(takeOver)
        .as("time until the survivor answered every key")
        .isGreaterThanOrEqualTo(SESSION_TIMEOUT.minus(HEARTBEAT_INTERVAL).minusSeconds(1));
    assertThat(answers.refused()).as("lookups refused while the group waited").isPositive();
    assertLookupsAnsweredBy(survivor, survivor);
    assertRestoredFromAWarmStandby(scenario, survivor, moved, ends);
  }

  /** Without a standby the survivor replays the changelogs of the partitions it takes over. */
  @Test
  void withoutAStandbyTheSurvivorReplaysTheChangelogsOfThePartitionsItTakesOver() throws Exception {
    Scenario scenario = scenario("failover-no-standby");
    List<ViewInstance> pair = startTwoAndPublish(scenario);
    ViewInstance owner = ownerOfMostPartitions(scenario, pair);
    ViewInstance survivor = other(pair, owner);
    Set<Integer> moved = owner.activePartitions(scenario.topic());
    Map<TopicPartition, Long> ends = changelogEnds(scenario);
    assertThat(survivor.lags())
        .as("standby replicas of %s", survivor)
        .noneMatch(Predicate.not(PartitionLag::isActive));

    owner.close();

    Answers answers = new Answers();
    awaitEveryValueFrom(List.of(survivor), answers);
    answers.assertOnlyRetryableRefusals();
    assertLookupsAnsweredBy(survivor, survivor);
    for (TopicPartition changelog : changelogsOf(scenario, moved)) {
      PartitionLag lag = activeLag(survivor, changelog);
      long end = ends.get(changelog);
      assertThat(end).as("records in %s", changelog).isGreaterThan(500);
      assertThat(lag.records())
          .as("records restored of %s, which holds %d: %s", changelog, end, lag)
          .isGreaterThanOrEqualTo(end * 9 / 10);
      assertThat(lag.lag()).as("%s", lag).isZero();
    }
  }

  /**
   * An instance restarted with its state dir wiped has nothing of its views, so it is not caught up
   * on any partition (with an {@code acceptable.recovery.lag} smaller than a partition's changelog)
   * and Kafka Streams leaves every active partition with the other instance, which held them all
   * since the restarted one left. The restarted instance rebuilds a standby copy of each partition
   * from the changelogs; while it does, every key is answered by the other instance, from either
   * instance.
   */
  @Test
  void whileARestartedInstanceRebuildsAWipedStateDirTheOtherAnswersEveryKey() throws Exception {
    Scenario scenario =
        scenario(
            "failover-wiped",
            "--matview.standby-replicas=1",
            "--spring.kafka.streams.properties.acceptable.recovery.lag=100",
            "--spring.kafka.streams.properties.restore.consumer.max.poll.records=100");
    List<ViewInstance> pair = startTwoAndPublish(scenario);
    ViewInstance restarted = ownerOfMostPartitions(scenario, pair);
    ViewInstance other = other(pair, restarted);
    Set<Integer> itsPartitions = restarted.activePartitions(scenario.topic());
    Map<TopicPartition, Long> ends = changelogEnds(scenario);
    assertThat(ends.values()).allMatch(end -> end > 100);
    awaitStandbysCaughtUp(other, itsPartitions, ends);
    restarted.close();
    awaitEveryValueFrom(List.of(other), new Answers());
    Path stateDir = stateDir(scenario, restarted.name());
    assertThat(FileSystemUtils.deleteRecursively(stateDir)).isTrue();

    StandbyGate gate = new StandbyGate();
    ViewInstance again = start(scenario, restarted.name(), Map.of("standbyGate", gate));
    try {
      assertThat(gate.awaitHeld(TIMEOUT)).as("a standby batch held").isTrue();
      List<PartitionLag> restoring = again.lags();
      assertThat(restoring)
          .as("partitions of %s", again)
          .isNotEmpty()
          .noneMatch(PartitionLag::isActive);
      assertThat(restoring).anyMatch(lag -> lag.lag() > 0 && lag.records() > 0);
      await("%s running and ready while its standbys restore".formatted(again))
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .untilAsserted(
              () -> {
                assertThat(again.state()).isEqualTo(KafkaStreams.State.RUNNING);
                HttpProbe.Answer health = again.http().get("/actuator/health/matview");
                assertThat(health.json().path("status").asString())
                    .as(health.describe())
                    .isEqualTo("UP");
                assertThat(again.http().get("/actuator/health/readiness").status()).isEqualTo(200);
              });
      for (ViewInstance instance : List.of(other, again)) {
        Answers answers = new Answers();
        assertEveryValue(instance, answers);
        answers.assertOnlyRetryableRefusals();
        assertThat(answers.refused()).isZero();
        assertLookupsAnsweredBy(instance, other);
      }
      assertThat(gate.held()).as("the standby batch still held after the lookups").isTrue();
    } finally {
      gate.release();
    }
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              for (TopicPartition changelog : changelogsOf(scenario, allPartitions())) {
                PartitionLag lag =
                    lag(again, changelog)
                        .orElseThrow(
                            () ->
                                new AssertionError(
                                    "no lag of " + changelog + " in " + again.lags()));
                long end = ends.get(changelog);
                assertThat(lag.role()).isEqualTo(PartitionLag.Role.STANDBY);
                assertThat(lag.currentOffset()).as("%s", lag).isGreaterThanOrEqualTo(end);
                assertThat(lag.records()).as("%s", lag).isGreaterThanOrEqualTo(end * 9 / 10);
              }
            });
    Answers answers = new Answers();
    assertEveryValue(again, answers);
    assertThat(answers.refused()).isZero();
  }

  /**
   * A streamed scan that reaches a partition whose owner went away has sent the partitions before
   * it; its last line carries the 503 problem and a cursor, and following that cursor once the
   * survivor has taken over yields exactly the keys it had not sent yet.
   */
  @Test
  void aStreamedScanCutShortByAnOwnerThatWentAwayResumesRightAfterItsLastItem() throws Exception {
    Scenario scenario = scenario("failover-stream", "--matview.standby-replicas=1");
    List<ViewInstance> pair = startTwoAndPublish(scenario);
    ViewInstance survivor =
        pair.stream()
            .filter(instance -> instance.activePartitions(scenario.topic()).contains(0))
            .findFirst()
            .orElseThrow();
    other(pair, survivor).closeWithoutLeavingTheGroup();

    StreamedScan scan = new StreamedScan(survivor, "/views/" + PER_CUSTOMER + "/keys");
    assertThat(scan.next()).as("the first response ended complete").isFalse();
    assertThat(scan.lastProblem().path("status").asInt()).isEqualTo(503);
    assertThat(scan.items()).as("keys sent before the owner that went away").isNotEmpty();
    await("the scan resumed at its cursor to its end")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(scan::next);

    Map<String, Long> scanned = new TreeMap<>();
    for (JsonNode item : scan.items()) {
      Long before = scanned.put(item.path("key").asString(), item.path("value").asLong());
      assertThat(before).as("%s scanned twice", item.path("key")).isNull();
    }
    assertThat(scanned).isEqualTo(HISTORY.perCustomer());
  }

  /** A client of a streamed scan that follows the cursor of each response cut short. */
  private static final class StreamedScan {

    private final ViewInstance instance;

    private final String path;

    private final List<JsonNode> items = new ArrayList<>();

    private @Nullable String cursor;

    private JsonNode lastProblem = JsonNodeFactory.instance.missingNode();

    StreamedScan(ViewInstance instance, String path) {
      this.instance = instance;
      this.path = path;
    }

    /** Asks for the rest of the scan once; whether it has come to its end. */
    boolean next() {
      String asked =
          (this.cursor == null) ? this.path : this.path + "?cursor=" + encode(this.cursor);
      HttpProbe.Answer answer = this.instance.http().get(asked, "Accept", "application/x-ndjson");
      if (answer.status() == 503) {
        assertThat(answer.header("Retry-After")).as(answer.describe()).matches("[1-9][0-9]*");
        return false;
      }
      assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
      assertThat(answer.body()).as(answer.describe()).endsWith("\n");
      String[] lines = answer.body().split("\n");
      for (int line = 0; line < lines.length - 1; line++) {
        this.items.add(LINES.readTree(lines[line]));
      }
      JsonNode end = LINES.readTree(lines[lines.length - 1]);
      this.lastProblem = end.path("problem");
      if (end.path("nextCursor").isNull()) {
        return true;
      }
      assertThat(end.path("nextCursor").isString()).as(answer.describe()).isTrue();
      this.cursor = end.path("nextCursor").asString();
      return false;
    }

    List<JsonNode> items() {
      return this.items;
    }

    JsonNode lastProblem() {
      return this.lastProblem;
    }
  }

  /**
   * A partition the survivor still restores must not answer from its half-restored store: it
   * answers 503 with a Retry-After (README, "HTTP API": "503 ... restoring"), or the exact value. A
   * restore listener, as a user may declare, holds the survivor's restore after its first batch, so
   * the lookups certainly run while it restores.
   */
  @Test
  void aPartitionStillRestoringRefusesLookupsRatherThanAnswerFromItsPartialStore()
      throws Exception {
    Scenario scenario = scenario("failover-restoring");
    RestoreGate gate = new RestoreGate();
    List<ViewInstance> pair = startTwoAndPublish(scenario, Map.of("restoreGate", gate));
    ViewInstance owner = ownerOfMostPartitions(scenario, pair);
    ViewInstance survivor = other(pair, owner);
    Set<Integer> moved = owner.activePartitions(scenario.topic());
    gate.arm();
    owner.close();
    try {
      assertThat(gate.awaitHeld(TIMEOUT)).as("a restore batch held").isTrue();
      List<String> customers = new ArrayList<>();
      for (int partition : moved) {
        customers.addAll(HISTORY.customersByPartition(PARTITIONS).get(partition).subList(0, 20));
      }
      Answers answers = new Answers();
      List<String> wrong = new ArrayList<>();
      lookUpTogether(survivor, customers)
          .forEach(
              (customer, answer) -> {
                answers.record(answer);
                if (answer.status() == 200
                    && answer.json().path("value").asLong()
                        != HISTORY.perCustomer().get(customer)) {
                  wrong.add(
                      answer.describe() + ", expected " + HISTORY.perCustomer().get(customer));
                }
              });
      assertThat(gate.held()).as("the restore still held after the lookups").isTrue();
      answers.assertOnlyRetryableRefusals();
      assertThat(wrong).as("values answered from a partial store").isEmpty();
    } finally {
      gate.release();
    }
  }

  /**
   * Looks up the count of each of {@code customers} on {@code instance}, all at once: a lookup of a
   * partition that is still restoring is routed again for up to {@code
   * matview.lookups.retry-within} (a second) before it is refused, and one after the other they
   * would wait out that second each.
   */
  private static Map<String, HttpProbe.Answer> lookUpTogether(
      ViewInstance instance, List<String> customers) throws Exception {
    ExecutorService clients = Executors.newFixedThreadPool(customers.size());
    try {
      Map<String, Future<HttpProbe.Answer>> asked = new LinkedHashMap<>();
      for (String customer : customers) {
        asked.put(
            customer,
            clients.submit(
                () -> instance.http().get("/views/" + PER_CUSTOMER + "/keys/" + encode(customer))));
      }
      Map<String, HttpProbe.Answer> answers = new LinkedHashMap<>();
      for (Map.Entry<String, Future<HttpProbe.Answer>> lookup : asked.entrySet()) {
        answers.put(lookup.getKey(), lookup.getValue().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
      }
      return answers;
    } finally {
      clients.shutdownNow();
    }
  }

  private Scenario scenario(String applicationId, String... settings) throws Exception {
    Scenario scenario = new Scenario(applicationId, List.of(settings));
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", this.brokers))) {
      admin
          .createTopics(List.of(new NewTopic(scenario.topic(), PARTITIONS, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    return scenario;
  }

  /**
   * Starts two instances, waits until each holds active partitions, publishes the orders and waits
   * until both answer every value.
   */
  private List<ViewInstance> startTwoAndPublish(Scenario scenario) throws Exception {
    return startTwoAndPublish(scenario, Map.of());
  }

  /** Starts two instances, each with {@code beans}, and publishes the orders. */
  private List<ViewInstance> startTwoAndPublish(Scenario scenario, Map<String, Object> beans)
      throws Exception {
    List<ViewInstance> pair = List.of(start(scenario, "a", beans), start(scenario, "b", beans));
    await("both instances hold active partitions")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              for (ViewInstance instance : pair) {
                assertThat(instance.state())
                    .as(instance.name())
                    .isEqualTo(KafkaStreams.State.RUNNING);
                assertThat(instance.activePartitions(scenario.topic()))
                    .as(instance.name())
                    .isNotEmpty();
              }
              Set<Integer> all = new TreeSet<>();
              pair.forEach(instance -> all.addAll(instance.activePartitions(scenario.topic())));
              assertThat(all).isEqualTo(allPartitions());
            });
    HISTORY.publish(this.brokers, scenario.topic());
    awaitEveryOrderProcessed(scenario);
    awaitEveryValueFrom(pair, new Answers());
    return pair;
  }

  /**
   * Waits until the application has committed every order of its source topic, so no lookup runs
   * while Kafka Streams still writes to the stores. Kafka Streams 4.1.2 can deadlock an IQv2 lookup
   * of a RocksDB key-value store with a concurrent write to it (KAFKA-19629: {@code
   * RocksDBStore#put} locks the store, then its position; {@code RocksDBStore#query} the position,
   * then the store), which stops the stream thread for good.
   */
  private void awaitEveryOrderProcessed(Scenario scenario) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", this.brokers))) {
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      allPartitions()
          .forEach(
              partition ->
                  latest.put(new TopicPartition(scenario.topic(), partition), OffsetSpec.latest()));
      Map<TopicPartition, Long> ends = new HashMap<>();
      admin
          .listOffsets(latest)
          .all()
          .get(30, TimeUnit.SECONDS)
          .forEach((partition, info) -> ends.put(partition, info.offset()));
      assertThat(ends.values().stream().mapToLong(Long::longValue).sum())
          .isEqualTo(HISTORY.orders().size());
      await("every order of " + scenario.topic() + " processed and committed")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .untilAsserted(
              () -> {
                Map<TopicPartition, Long> committed = new HashMap<>();
                admin
                    .listConsumerGroupOffsets(scenario.applicationId())
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS)
                    .forEach(
                        (partition, offset) -> {
                          if (offset != null) {
                            committed.put(partition, offset.offset());
                          }
                        });
                assertThat(committed).containsAllEntriesOf(ends);
              });
    }
  }

  private ViewInstance start(Scenario scenario, String name, Map<String, Object> beans) {
    List<String> settings = new ArrayList<>();
    settings.addAll(
        List.of(
            "--spring.main.banner-mode=off",
            "--server.port=0",
            "--spring.kafka.bootstrap-servers=" + this.brokers,
            "--spring.kafka.streams.application-id=" + scenario.applicationId(),
            "--spring.kafka.streams.state-dir=" + stateDir(scenario, name),
            "--spring.kafka.streams.replication-factor=1",
            "--spring.kafka.streams.properties.commit.interval.ms=100",
            "--spring.kafka.streams.properties.session.timeout.ms=" + SESSION_TIMEOUT.toMillis(),
            "--spring.kafka.streams.properties.heartbeat.interval.ms="
                + HEARTBEAT_INTERVAL.toMillis(),
            "--matview.instance-id=" + scenario.applicationId() + "-" + name,
            "--matview.advertised-host=localhost",
            "--matview.rocksdb.total-memory=32MB",
            "--management.endpoint.health.show-details=always",
            "--failover.topic=" + scenario.topic()));
    settings.addAll(scenario.settings());
    ViewInstance instance = ViewInstance.start(name, beans, settings);
    this.instances.add(instance);
    return instance;
  }

  private Path stateDir(Scenario scenario, String name) {
    return this.stateDirs.resolve(scenario.applicationId() + "-" + name);
  }

  /** The instance with the most active partitions (the first of them on a tie). */
  private static ViewInstance ownerOfMostPartitions(Scenario scenario, List<ViewInstance> pair) {
    return pair.stream()
        .max(
            Comparator.comparingInt(instance -> instance.activePartitions(scenario.topic()).size()))
        .orElseThrow();
  }

  private static ViewInstance other(List<ViewInstance> pair, ViewInstance one) {
    return pair.stream().filter(instance -> instance != one).findFirst().orElseThrow();
  }

  /**
   * Waits until {@code instance}'s standby copies of {@code partitions} hold every changelog
   * record.
   */
  private static void awaitStandbysCaughtUp(
      ViewInstance instance, Set<Integer> partitions, Map<TopicPartition, Long> ends) {
    await("standbys of " + partitions + " on " + instance + " caught up")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              for (TopicPartition changelog : ends.keySet()) {
                if (!partitions.contains(changelog.partition())) {
                  continue;
                }
                PartitionLag lag =
                    lag(instance, changelog)
                        .orElseThrow(
                            () -> new AssertionError(changelog + " in " + instance.lags()));
                assertThat(lag.role()).isEqualTo(PartitionLag.Role.STANDBY);
                assertThat(lag.currentOffset()).as("%s", lag).isEqualTo(ends.get(changelog));
              }
            });
  }

  /**
   * Asserts that {@code survivor} restored at most a tenth of each changelog partition it took over
   * and is up to date.
   */
  private static void assertRestoredFromAWarmStandby(
      Scenario scenario,
      ViewInstance survivor,
      Set<Integer> moved,
      Map<TopicPartition, Long> ends) {
    for (TopicPartition changelog : changelogsOf(scenario, moved)) {
      PartitionLag lag = activeLag(survivor, changelog);
      long end = ends.get(changelog);
      assertThat(end).as("records in %s", changelog).isGreaterThan(500);
      assertThat(lag.records())
          .as("records restored of %s, which holds %d: %s", changelog, end, lag)
          .isLessThan(end / 10);
      assertThat(lag.currentOffset()).as("%s", lag).isEqualTo(end);
      assertThat(lag.lag()).as("%s", lag).isZero();
    }
  }

  private static PartitionLag activeLag(ViewInstance instance, TopicPartition changelog) {
    PartitionLag lag =
        lag(instance, changelog)
            .orElseThrow(() -> new AssertionError(changelog + " in " + instance.lags()));
    assertThat(lag.role()).as("%s", lag).isEqualTo(PartitionLag.Role.ACTIVE);
    return lag;
  }

  private static Optional<PartitionLag> lag(ViewInstance instance, TopicPartition changelog) {
    return lagOf(instance, storeOf(changelog), changelog.partition());
  }

  private static Optional<PartitionLag> lagOf(ViewInstance instance, String store, int partition) {
    return instance.lags().stream()
        .filter(lag -> lag.store().equals(store) && lag.partition() == partition)
        .findFirst();
  }

  private static String storeOf(TopicPartition changelog) {
    return changelog.topic().contains(PER_MINUTE) ? PER_MINUTE : PER_CUSTOMER;
  }

  private static List<TopicPartition> changelogsOf(
      Scenario scenario, Collection<Integer> partitions) {
    List<TopicPartition> changelogs = new ArrayList<>();
    for (String view : List.of(PER_CUSTOMER, PER_MINUTE)) {
      partitions.forEach(
          partition -> changelogs.add(new TopicPartition(scenario.changelog(view), partition)));
    }
    return changelogs;
  }

  /** The end offset of every partition of both views' changelogs. */
  private Map<TopicPartition, Long> changelogEnds(Scenario scenario) throws Exception {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    changelogsOf(scenario, allPartitions())
        .forEach(changelog -> latest.put(changelog, OffsetSpec.latest()));
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", this.brokers))) {
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> offsets =
          admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
      Map<TopicPartition, Long> ends =
          new TreeMap<>(Comparator.comparing(TopicPartition::toString));
      offsets.forEach((changelog, info) -> ends.put(changelog, info.offset()));
      assertThat(changelogRecords(scenario, ends, PER_MINUTE))
          .as(
              "records in the changelog of %s, a window's orders between two commits folded"
                  + " into one by the record cache",
              PER_MINUTE)
          .isBetween((long) HISTORY.perMinute().size(), (long) HISTORY.orders().size());
      assertThat(changelogRecords(scenario, ends, PER_CUSTOMER))
          .as(
              "records in the changelog of %s, a customer's orders between two commits folded"
                  + " into one by the record cache",
              PER_CUSTOMER)
          .isBetween((long) HISTORY.perCustomer().size(), (long) HISTORY.orders().size());
      return ends;
    }
  }

  private static long changelogRecords(
      Scenario scenario, Map<TopicPartition, Long> ends, String view) {
    return ends.entrySet().stream()
        .filter(entry -> entry.getKey().topic().equals(scenario.changelog(view)))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  private static Set<Integer> allPartitions() {
    return IntStream.range(0, PARTITIONS).boxed().collect(Collectors.toCollection(TreeSet::new));
  }

  private static int first(Set<Integer> partitions) {
    return partitions.iterator().next();
  }

  /** Waits until every instance runs and its scans answer every expected value. */
  private static void awaitEveryValueFrom(List<ViewInstance> live, Answers answers) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .untilAsserted(
            () -> {
              for (ViewInstance instance : live) {
                assertThat(instance.state())
                    .as(instance.name())
                    .isEqualTo(KafkaStreams.State.RUNNING);
              }
              for (ViewInstance instance : live) {
                assertEveryValue(instance, answers);
              }
            });
  }

  /** Scans both views from {@code instance} and compares every key and window with the history. */
  private static void assertEveryValue(ViewInstance instance, Answers answers) {
    Map<String, Long> perCustomer = new TreeMap<>();
    scan(instance, "/views/" + PER_CUSTOMER + "/keys?", answers)
        .forEach(item -> perCustomer.put(item.path("key").asString(), item.path("value").asLong()));
    assertSameEntries(instance + " " + PER_CUSTOMER, perCustomer, HISTORY.perCustomer());
    Map<Window, Long> perMinute = new TreeMap<>();
    scan(instance, "/views/" + PER_MINUTE + "/windows?from=" + FROM + "&to=" + TO, answers)
        .forEach(
            item ->
                perMinute.put(
                    new Window(
                        item.path("key").asString(), Instant.parse(item.path("start").asString())),
                    item.path("value").asLong()));
    assertSameEntries(instance + " " + PER_MINUTE, perMinute, HISTORY.perMinute());
  }

  /**
   * Asserts that {@code instance} answers keys of every partition, their counts and their windows,
   * exactly, each answer served by {@code owner}.
   */
  private static void assertLookupsAnsweredBy(ViewInstance instance, ViewInstance owner) {
    List<String> differences = new ArrayList<>();
    int asked = 0;
    for (List<String> customers : HISTORY.customersByPartition(PARTITIONS).values()) {
      for (String customer : customers.subList(0, Math.min(20, customers.size()))) {
        HttpProbe.Answer count =
            instance.http().get("/views/" + PER_CUSTOMER + "/keys/" + encode(customer));
        if (count.status() != 200
            || count.json().path("value").asLong() != HISTORY.perCustomer().get(customer)
            || !count.header(SERVED_BY).equals(owner.address())) {
          differences.add(count.describe() + " served by " + count.header(SERVED_BY));
        }
        HttpProbe.Answer windows =
            instance
                .http()
                .get(
                    "/views/"
                        + PER_MINUTE
                        + "/keys/"
                        + encode(customer)
                        + "/windows?from="
                        + FROM
                        + "&to="
                        + TO);
        List<String> answered = new ArrayList<>();
        windows
            .json()
            .path("windows")
            .forEach(
                window ->
                    answered.add(
                        Instant.parse(window.path("start").asString())
                            + "="
                            + window.path("value").asLong()));
        if (windows.status() != 200
            || !answered.equals(HISTORY.windowsOf(customer))
            || !windows.header(SERVED_BY).equals(owner.address())) {
          differences.add(
              windows.describe()
                  + " served by "
                  + windows.header(SERVED_BY)
                  + ", expected "
                  + HISTORY.windowsOf(customer));
        }
        asked++;
      }
    }
    assertThat(asked).isEqualTo(20 * PARTITIONS);
    assertThat(differences.subList(0, Math.min(10, differences.size())))
        .as("%s: %d of %d lookups wrong", instance, differences.size(), 2 * asked)
        .isEmpty();
  }

  /** Every item of a scan from {@code instance}, following cursors until there are none. */
  private static List<JsonNode> scan(ViewInstance instance, String path, Answers answers) {
    String first = path + (path.endsWith("?") ? "" : "&") + "limit=1000";
    List<JsonNode> items = new ArrayList<>();
    String cursor = null;
    for (int page = 0; page < 100; page++) {
      HttpProbe.Answer answer =
          instance.http().get(cursor == null ? first : first + "&cursor=" + encode(cursor));
      answers.record(answer);
      assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
      answer.json().path("items").forEach(items::add);
      JsonNode next = answer.json().path("nextCursor");
      if (next.isNull()) {
        return items;
      }
      assertThat(next.isString()).as(answer.describe()).isTrue();
      cursor = next.asString();
    }
    throw new AssertionError("A scan of " + path + " did not end after 100 pages");
  }

  /** Fails with a short list of the differences, not the two whole maps. */
  private static <K> void assertSameEntries(
      String what, Map<K, Long> actual, Map<K, Long> expected) {
    List<String> differences = new ArrayList<>();
    expected.forEach(
        (key, value) -> {
          if (!Objects.equals(actual.get(key), value)) {
            differences.add(key + ": expected " + value + " but was " + actual.get(key));
          }
        });
    actual.keySet().stream()
        .filter(Predicate.not(expected::containsKey))
        .forEach(key -> differences.add(key + ": not expected"));
    assertThat(differences.subList(0, Math.min(20, differences.size())))
        .as("%s: %d of %d entries differ", what, differences.size(), expected.size())
        .isEmpty();
  }

  /**
   * One test's application: its id, which names its changelogs, and its settings beyond the common
   * ones.
   */
  private record Scenario(String applicationId, List<String> settings) {

    String topic() {
      return this.applicationId + "-orders";
    }

    String changelog(String view) {
      return this.applicationId + "-" + view + "-changelog";
    }
  }

  /** The statuses of the answers seen while instances fail over, for checks after. */
  private static final class Answers {

    private final List<String> unexpected = new CopyOnWriteArrayList<>();

    private final AtomicInteger refused = new AtomicInteger();

    void record(HttpProbe.Answer answer) {
      if (answer.status() == 503 && answer.header("Retry-After").matches("[1-9][0-9]*")) {
        this.refused.incrementAndGet();
      } else if (answer.status() != 200) {
        this.unexpected.add(answer.describe());
      }
    }

    int refused() {
      return this.refused.get();
    }

    /** Asserts that every answer was 200, or 503 with a Retry-After. */
    void assertOnlyRetryableRefusals() {
      assertThat(this.unexpected).as("answers neither 200 nor 503 with Retry-After").isEmpty();
    }
  }

  /** Holds the standby updates of its instance after their first batch, until released. */
  static final class StandbyGate implements StandbyUpdateListener {

    private final CountDownLatch held = new CountDownLatch(1);

    private final CountDownLatch released = new CountDownLatch(1);

    boolean awaitHeld(Duration timeout) throws InterruptedException {
      return this.held.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    boolean held() {
      return this.held.getCount() == 0 && this.released.getCount() > 0;
    }

    void release() {
      this.released.countDown();
    }

    @Override
    public void onUpdateStart(TopicPartition partition, String store, long startingOffset) {}

    @Override
    public void onBatchLoaded(
        TopicPartition partition,
        String store,
        TaskId taskId,
        long batchEndOffset,
        long batchSize,
        long currentEndOffset) {
      this.held.countDown();
      try {
        this.released.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void onUpdateSuspended(
        TopicPartition partition,
        String store,
        long storeOffset,
        long currentEndOffset,
        SuspendReason reason) {}
  }

  /**
   * Once armed, holds the restores of its instances after their first batch, until released, as a
   * user's restore listener may.
   */
  static final class RestoreGate implements StateRestoreListener {

    private final CountDownLatch held = new CountDownLatch(1);

    private final CountDownLatch released = new CountDownLatch(1);

    private volatile boolean armed;

    void arm() {
      this.armed = true;
    }

    boolean awaitHeld(Duration timeout) throws InterruptedException {
      return this.held.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    boolean held() {
      return this.held.getCount() == 0 && this.released.getCount() > 0;
    }

    void release() {
      this.released.countDown();
    }

    @Override
    public void onRestoreStart(TopicPartition partition, String store, long start, long end) {}

    @Override
    public void onBatchRestored(TopicPartition partition, String store, long end, long count) {
      if (!this.armed) {
        return;
      }
      this.held.countDown();
      try {
        this.released.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String store, long total) {}
  }
}
