package dev.matview.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import dev.matview.conformance.ConformanceCluster.Instance;
import dev.matview.conformance.Matrix.Endpoint;
import dev.matview.conformance.Matrix.Outcome;
import dev.matview.conformance.Matrix.Row;
import dev.matview.processes.http.HttpProbe;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The conformance matrix: every kind of view the README promises ({@link Matrix#ROWS}) on every
 * endpoint ({@link Matrix.Endpoint}), checked against values computed independently ({@link
 * ExpectedView}) from a generated data set ({@link DataSet}) published to a real broker, first on
 * one instance, then on two that share the broker, asked of each (so that lookups are forwarded).
 * Each cell is a test of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConformanceMatrixIntegrationTests {

  /**
   * Two hours before now, on a whole minute: every event time lies in the past, and within the
   * views' retention of one day.
   */
  private static final Instant START =
      Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(2));

  private static final DataSet DATA = DataSet.generate(20261130L, START);

  @TempDir static Path stateDirs;

  private final Map<String, ExpectedView> expected = new LinkedHashMap<>();

  private ConformanceCluster cluster;

  @BeforeAll
  void startOneInstanceAndPublish() throws Exception {
    for (Row row : Matrix.ROWS) {
      if (row.view() != Matrix.UNKNOWN) {
        this.expected.put(row.view().name(), ExpectedView.of(row.view(), DATA));
      }
    }
    this.cluster = new ConformanceCluster(stateDirs);
    this.cluster.start();
    this.cluster.publish(
        DATA,
        Matrix.ROWS.stream().map(Row::view).filter(ViewKind::grouped).map(ViewKind::name).toList());
  }

  @AfterAll
  void stop() {
    if (this.cluster != null) {
      this.cluster.close();
    }
  }

  @Test
  @Order(1)
  void theDataSetHoldsOutOfOrderLateAndSessionBridgingRecordsForEveryWindowedView() {
    for (Row row : Matrix.ROWS) {
      ViewKind view = row.view();
      if (view == Matrix.UNKNOWN || view.table()) {
        continue;
      }
      ExpectedView.Stats stats = this.expected.get(view.name()).stats();
      assertThat(stats.outOfOrderCounted).as(view.name() + ": " + stats).isPositive();
      assertThat(stats.late).as(view.name() + ": " + stats).isPositive();
      switch (view.window().type()) {
        case HOPPING -> assertThat(stats.partlyLate).as(view.name() + ": " + stats).isPositive();
        case SESSION -> {
          assertThat(stats.bridges).as(view.name() + ": " + stats).isPositive();
          assertThat(stats.keptByAnOpenSession).as(view.name() + ": " + stats).isPositive();
        }
        default -> assertThat(stats.partlyLate).as(view.name()).isZero();
      }
    }
  }

  @Test
  @Order(2)
  void everyViewOfTheAppHasARowAndEveryRowACellForEveryEndpoint() {
    HttpProbe.Answer answer = this.cluster.instances().get(0).http().get("/views");
    List<String> listed = new ArrayList<>();
    for (JsonNode view : answer.json()) {
      listed.add(view.path("name").asString());
    }
    assertThat(listed)
        .containsExactlyInAnyOrderElementsOf(
            Matrix.ROWS.stream()
                .map(Row::view)
                .filter(view -> view != Matrix.UNKNOWN)
                .map(ViewKind::name)
                .toList());
    for (Row row : Matrix.ROWS) {
      assertThat(row.cells().keySet()).as(row.view().name()).containsExactly(Endpoint.values());
    }
  }

  /**
   * Matview's own late-record gates agree with the model record by record: each record late for
   * every window (or the session it would make) is one dead letter with reason {@code late}; a
   * record late for only some hopping windows is none, and no record is a dead letter for any other
   * reason.
   */
  @Test
  @Order(3)
  void deadLettersExactlyTheRecordsTheModelFindsLate() {
    Map<String, Long> late = new TreeMap<>();
    for (Row row : Matrix.ROWS) {
      ViewKind view = row.view();
      if (view != Matrix.UNKNOWN && !view.table()) {
        late.put(view.name() + " late", (long) this.expected.get(view.name()).stats().late);
      }
    }
    assertThat(this.cluster.deadLetters()).isEqualTo(late);
  }

  @TestFactory
  @Order(4)
  Stream<DynamicNode> oneInstance() {
    return matrix("one instance", this.cluster.instances());
  }

  @TestFactory
  @Order(5)
  Stream<DynamicNode> twoInstances() {
    this.cluster.start();
    List<Instance> instances = this.cluster.instances();
    awaitEveryLookupAnsweredBy(instances);
    List<ViewKind> views =
        Matrix.ROWS.stream().map(Row::view).filter(view -> view != Matrix.UNKNOWN).toList();
    Map<String, Long> forwarded = Cells.forwardedKeys(instances, views, this.expected);
    DynamicTest forwarding =
        DynamicTest.dynamicTest(
            "each instance forwards the lookups of the keys the other owns",
            () -> assertThat(forwarded.values()).as(forwarded.toString()).allMatch(n -> n > 0));
    return Stream.concat(Stream.of(forwarding), matrix("two instances", instances));
  }

  /** A container per asked instance, a container per row, a test per cell. */
  private Stream<DynamicNode> matrix(String name, List<Instance> instances) {
    Cells cells = new Cells(DATA, this.expected);
    return Stream.of(
        DynamicContainer.dynamicContainer(
            name,
            instances.stream()
                .map(
                    asker ->
                        DynamicContainer.dynamicContainer(
                            "asked of " + asker.name(),
                            Matrix.ROWS.stream()
                                .map(
                                    row ->
                                        DynamicContainer.dynamicContainer(
                                            row.view().name(),
                                            Stream.of(Endpoint.values())
                                                .map(
                                                    endpoint ->
                                                        cell(cells, row, endpoint, asker))))))));
  }

  private static DynamicTest cell(Cells cells, Row row, Endpoint endpoint, Instance asker) {
    Outcome outcome = row.outcome(endpoint);
    String name = endpoint + " " + (outcome != null ? outcome : "(no cell)");
    return DynamicTest.dynamicTest(
        name,
        () -> {
          if (outcome == null) {
            fail("Row " + row.view().name() + " has no cell for " + endpoint);
          }
          cells.check(row.view(), endpoint, outcome, asker);
        });
  }

  /**
   * Waits until every instance answers a lookup of every key with 200: the instance that joined
   * last has restored its partitions and both agree who owns what.
   */
  private void awaitEveryLookupAnsweredBy(List<Instance> instances) {
    await("every lookup answered by every instance")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(300))
        .untilAsserted(
            () -> {
              for (Instance instance : instances) {
                for (Row row : Matrix.ROWS) {
                  ViewKind view = row.view();
                  if (view == Matrix.UNKNOWN) {
                    continue;
                  }
                  for (Object key : this.expected.get(view.name()).keys()) {
                    String path =
                        "/views/"
                            + view.name()
                            + "/keys/"
                            + view.keyKind().inUrl(key)
                            + (view.table()
                                ? ""
                                : "/windows?from=" + DATA.start() + "&to=" + DATA.end());
                    HttpProbe.Answer answer = instance.http().get(path);
                    assertThat(answer.status()).as(Answers.describe(answer)).isEqualTo(200);
                  }
                }
              }
            });
  }
}
