package dev.matview.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.faults.LookupTally.Mode;
import dev.matview.processes.ChildJvm;
import dev.matview.processes.KafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Kills instances of the sample jar with SIGKILL while orders are published and keys looked up, and
 * then checks that every view on every instance holds exactly what the published orders say, that
 * no lookup ever answered 500, and that a client which sends back the last position it got never
 * read a value older than one it had seen, and that the change streams of a few keys, followed
 * across instances with {@code Last-Event-ID}, tell every order once and end at the published
 * count.
 *
 * <p>The short form runs in {@code mvn verify}; the long form, with many more kills and a broker
 * restart, runs with {@code mvn -B -pl fault-suite -am verify -Pfault-long} and writes {@code
 * docs/reliability.md}. Logs of every child JVM are kept under {@code
 * fault-suite/target/fault-suite/logs-*}.
 */
class FaultSuiteTests {

  private static final Duration STARTUP_BOUND = Duration.ofMinutes(4);

  private static final int PARTITIONS = 3;

  /** How long after the views are exact the followed change streams may take to tell the last. */
  private static final Duration CHANGES_BOUND = Duration.ofSeconds(30);

  private static Path workDir;

  private static ChangeFollower changeFollower;

  @AfterAll
  static void stopEveryProcessAndDeleteTheirFiles() throws IOException, InterruptedException {
    if (changeFollower != null) {
      changeFollower.close();
    }
    ChildJvm.killAll();
    if (workDir != null && Files.exists(workDir)) {
      try (Stream<Path> files = Files.walk(workDir)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(file);
        }
      }
    }
  }

  @Test
  void everyViewOnEveryInstanceIsExactAndNoLookupFailsOrGoesBackWhileInstancesAreKilledUnderLoad()
      throws Exception {
    FaultPlan plan = FaultPlan.fromSystemProperties();
    Path sampleJar = Path.of(System.getProperty("fault.sample-jar"));
    assertThat(sampleJar)
        .as("the sample's jar: run the suite with mvn -pl fault-suite -am verify")
        .isRegularFile();
    Path suiteDir = Files.createDirectories(Path.of(System.getProperty("fault.work-dir")));
    workDir = Files.createTempDirectory(suiteDir, "run-");
    Instant started = Instant.now();
    Path logDir =
        suiteDir.resolve(
            "logs-"
                + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                    .withZone(ZoneOffset.UTC)
                    .format(started));

    KafkaBroker broker = new KafkaBroker(workDir, logDir.resolve("kafka.log"));
    broker.start();
    broker.createTopic(OrderLoad.TOPIC, PARTITIONS);
    List<String> customers =
        IntStream.rangeClosed(1, plan.customers()).mapToObj(i -> "customer-" + i).toList();
    List<SampleInstance> instances = new ArrayList<>();
    for (int number = 1; number <= plan.instances(); number++) {
      instances.add(
          new SampleInstance(number, sampleJar, broker.bootstrapServers(), workDir, logDir));
    }
    instances.forEach(SampleInstance::start);
    for (SampleInstance instance : instances) {
      instance.awaitServing(STARTUP_BOUND);
    }

    List<String> followed = customers.subList(0, plan.changeStreams());
    ChangeTally changes = new ChangeTally();
    changeFollower = new ChangeFollower(instances, followed, changes);
    changeFollower.start();
    EventClock eventClock = new EventClock(plan.load());
    LookupTally tally = new LookupTally();
    FaultInjector faults = new FaultInjector(instances, broker, plan);
    long total = plan.ordersPerSecond() * plan.load().toSeconds();
    Map<String, Order> acknowledged;
    MonotonicReads monotonic;
    try (OrderLoad orders =
            new OrderLoad(
                broker.bootstrapServers(), customers, plan.ordersPerSecond(), total, eventClock);
        LookupLoad lookups =
            new LookupLoad(instances, customers, eventClock, orders::firstAcknowledged, tally)) {
      orders.start();
      lookups.start(plan.lookupPeriod().toMillis());
      faults.start();
      Awaitility.await("publishing " + total + " orders")
          .atMost(plan.load().multipliedBy(3))
          .pollInterval(Duration.ofSeconds(1))
          .until(orders::published);
      faults.stop();
      orders.stop();
      lookups.stop();
      monotonic = lookups.monotonicReads();
      assertThat(orders.failures()).as("orders the broker did not acknowledge").isEmpty();
      acknowledged = orders.acknowledged();
    }

    List<Order> inTopic = OrdersTopic.readAll(broker.bootstrapServers(), PARTITIONS);
    ViewContents expected = ViewContents.expectedFrom(inTopic);
    Instant loadStopped = Instant.now();
    Duration convergence = null;
    String failure = null;
    try {
      Awaitility.await("every view on every instance equal to the published orders")
          .atMost(plan.convergeBound())
          .pollInterval(Duration.ofSeconds(2))
          .untilAsserted(
              () -> assertEveryInstanceHolds(expected, instances, eventClock, customers));
      convergence = Duration.between(loadStopped, Instant.now());
    } catch (ConditionTimeoutException ex) {
      failure = ex.getMessage();
    }
    Map<String, Long> followedCounts = new TreeMap<>();
    followed.forEach(
        key -> followedCounts.put(key, expected.ordersPerCustomer().getOrDefault(key, 0L)));
    List<String> changeMismatches = awaitLastChanges(changes, followedCounts);
    ReliabilityReport.write(
        Path.of(System.getProperty("fault.report")),
        new ReliabilityReport.Run(
            plan,
            System.getProperty("fault.command", "mvn -B verify"),
            started,
            acknowledged.size(),
            inTopic.size(),
            faults,
            tally,
            monotonic,
            changes,
            changeMismatches,
            convergence,
            failure));

    assertThat(faults.errors()).as("faults the cluster did not recover from").isEmpty();
    assertThat(faults.instanceRecoveries()).as("instance kills").hasSizeGreaterThanOrEqualTo(2);
    if (plan.brokerRestart() != null) {
      assertThat(faults.brokerRecoveries()).as("broker kills").hasSize(1);
    }
    assertThat(inTopic.stream().map(Order::orderId))
        .as("the orders in the topic are the acknowledged ones, each once")
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(acknowledged.keySet());
    assertThat(failure).as("views after the load").isNull();
    for (Mode mode : Mode.values()) {
      assertThat(tally.outcomes(mode).keySet())
          .as("outcomes of lookups %s; 5xx answers: %s", mode.description, tally.problems())
          .isSubsetOf(
              Set.of(
                  "200",
                  "404",
                  LookupTally.NOT_FOUND_SETTLED,
                  "503",
                  LookupTally.POSITION_NOT_REACHED,
                  "504",
                  LookupTally.NO_CONNECTION,
                  LookupTally.TIMED_OUT))
          .contains("200");
    }
    assertThat(monotonic.wentBack())
        .as(
            "answers of %d to a client that sends back the last Matview-Position that were lower"
                + " than a value it had seen; the first ones: %s",
            monotonic.checked(), monotonic.examples())
        .isZero();
    assertThat(changes.opens().keySet())
        .as("outcomes of opening change streams")
        .isSubsetOf(Set.of("200", "503", ChangeTally.NO_CONNECTION))
        .contains("200");
    assertThat(changes.outOfOrder())
        .as(
            "change events of %d out of order (gaps %d, duplicates %d, went back %d, of another"
                + " key %d); the first ones: %s",
            changes.events(),
            changes.gaps(),
            changes.duplicates(),
            changes.wentBack(),
            changes.otherKeys(),
            changes.examples())
        .isZero();
    assertThat(changeMismatches)
        .as("followed keys whose change stream did not end at their order count")
        .isEmpty();
  }

  /**
   * Waits until the last value of each followed key's change stream is its order count in {@code
   * counts}, then stops following: the keys that never got there.
   */
  private static List<String> awaitLastChanges(ChangeTally changes, Map<String, Long> counts)
      throws InterruptedException {
    try {
      Awaitility.await("each followed change stream at its order count")
          .atMost(CHANGES_BOUND)
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(200))
          .until(() -> changes.mismatches(counts).isEmpty());
    } catch (ConditionTimeoutException ex) {
      // the keys still out are reported below
    }
    changeFollower.close();
    return changes.mismatches(counts);
  }

  private static void assertEveryInstanceHolds(
      ViewContents expected,
      List<SampleInstance> instances,
      EventClock eventClock,
      List<String> customers) {
    for (SampleInstance instance : instances) {
      ViewReader reader =
          new ViewReader(instance, eventClock.earliestWindow(), eventClock.latestWindow());
      assertThat(reader.scan()).as("%s, all keys by scans", instance).isEqualTo(expected);
      assertThat(reader.lookUp(customers)).as("%s, key lookups", instance).isEqualTo(expected);
    }
  }
}
