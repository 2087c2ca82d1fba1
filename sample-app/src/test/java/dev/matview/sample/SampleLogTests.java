package dev.matview.sample;

import static dev.matview.sample.OrderViewsClient.ORDERS_PER_CUSTOMER;
import static dev.matview.sample.OrderViewsClient.ORDERS_PER_CUSTOMER_PER_MINUTE;
import static dev.matview.sample.OrderViewsClient.REVENUE_PER_CUSTOMER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.ChildJvm;
import dev.matview.processes.LocalPorts;
import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.HttpProbe.Answer;
import dev.matview.processes.http.ServerSentEventReader;
import dev.matview.processes.http.StreamedAnswer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample's log, as a user sees it when running the jar: Matview's start-up summary comes first,
 * and a run with lookups, a scan and change streams whose clients go away holds no WARN and no
 * ERROR but the few this class names; a property that cannot be bound fails start-up with Boot's
 * report as the one ERROR. The sample runs in a JVM of its own, with its in-process broker, and its
 * whole output is read.
 */
class SampleLogTests {

  private static final Duration START_BOUND = Duration.ofMinutes(4);

  private static final Duration STEP = Duration.ofSeconds(30);

  /**
   * A log line's level: Spring Boot's console format, and logback's own before Boot sets it up
   * (such as a failure before the context starts).
   */
  private static final Pattern LEVEL =
      Pattern.compile(
          "^(?:\\d{4}-\\d{2}-\\d{2}T\\S+|\\d{2}:\\d{2}:\\d{2}\\.\\d+ \\[[^\\]]*\\])"
              + "\\s+(TRACE|DEBUG|INFO|WARN|ERROR)\\s");

  /**
   * What the sample's in-process broker warns once on a data dir it formats: KRaft writes its
   * bootstrap records into the new, empty metadata log.
   */
  private static final String FRESH_BROKER = "The metadata log appears to be empty";

  @TempDir Path dir;

  private ChildJvm sample;

  @AfterEach
  void stop() {
    if (this.sample != null) {
      this.sample.kill();
    }
  }

  @Test
  void
      aRunWithLookupsAScanAndChangeStreamsWhoseClientsLeaveLogsTheSummaryFirstAndWarnsOnlyOfItsNewBroker()
          throws Exception {
    int port = LocalPorts.free();
    this.sample = start("sample", "--server.port=" + port, "--matview.changes.heartbeat=2s");
    List<String> beforeSummary = awaitSummary();
    HttpProbe http = HttpProbe.localhost(port).withTimeout(STEP);
    lookUp(new OrderViewsClient(port));
    scan(http);
    followAndLeave(http);
    await("the change streams whose clients left to end")
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> openStreams(http) == 0);

    List<String> log = Files.readAllLines(this.sample.logFile());
    String summary =
        log.stream().filter(line -> line.contains("Matview serves 3 views")).findFirst().get();
    assertThat(levelOf(summary)).as("the level read from %s", summary).isEqualTo("INFO");
    assertThat(beforeSummary)
        .as("the lines before the start-up summary")
        .noneMatch(line -> line.contains("values:") || line.contains("AppInfoParser"))
        .hasSizeLessThan(40);
    assertThat(warningsAndErrors(log))
        .as("WARN and ERROR lines of the sample's log")
        .allMatch(line -> line.contains(FRESH_BROKER));
  }

  @Test
  void aPropertyThatCannotBeBoundFailsStartUpWithBootsReportAsTheOneError() throws IOException {
    this.sample = start("bad-property", "--matview.rocksdb.total-memory=abc");
    int exit = this.sample.awaitExit(START_BOUND);

    List<String> log = Files.readAllLines(this.sample.logFile());
    assertThat(exit).as("exit code of the sample, whose output is %s", log).isNotZero();
    assertThat(log)
        .contains("APPLICATION FAILED TO START")
        .anyMatch(line -> line.contains("Property: matview.rocksdb.total-memory"));
    assertThat(warningsAndErrors(log).stream().filter(line -> "ERROR".equals(levelOf(line))))
        .as("ERROR lines of the sample's log")
        .singleElement()
        .asString()
        .contains("LoggingFailureAnalysisReporter");
    assertThat(warningsAndErrors(log).stream().filter(line -> "WARN".equals(levelOf(line))))
        .as("WARN lines of the sample's log")
        .allMatch(
            line ->
                line.contains(FRESH_BROKER)
                    // Spring's own line for every context that fails to refresh, which Boot's
                    // report then explains.
                    || line.contains("Exception encountered during context initialization")
                    // The broker, stopped with the context that failed, closes a network client
                    // of its controller channel twice.
                    || line.contains("Attempting to close NetworkClient that has already been"));
  }

  private ChildJvm start(String name, String... arguments) {
    List<String> all = new ArrayList<>(brokerArguments());
    all.add("--spring.kafka.streams.state-dir=" + this.dir.resolve(name + "-streams"));
    all.addAll(List.of(arguments));
    ChildJvm child =
        new ChildJvm(
            name,
            List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx512m"),
            MatviewSampleApplication.class,
            all,
            this.dir);
    child.start();
    return child;
  }

  /** The sample's own in-process broker, on a port and in a data dir of this test's. */
  private List<String> brokerArguments() {
    return List.of(
        "--sample.embedded-kafka.port=" + LocalPorts.free(),
        "--sample.embedded-kafka.data-dir=" + this.dir.resolve("kafka"));
  }

  /** Waits for the start-up summary and returns the lines logged before it. */
  private List<String> awaitSummary() {
    List<String> before = new ArrayList<>();
    await("the sample's start-up summary in " + this.sample.logFile())
        .atMost(START_BOUND)
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              assertThat(this.sample.isAlive()).as("the sample is running").isTrue();
              List<String> log = Files.readAllLines(this.sample.logFile());
              for (int n = 0; n < log.size(); n++) {
                if (log.get(n).contains("Matview serves 3 views")) {
                  before.addAll(log.subList(0, n));
                  return true;
                }
              }
              return false;
            });
    return before;
  }

  /** An order placed and read back, a key that has no value, a revenue and a customer's windows. */
  private static void lookUp(OrderViewsClient client) {
    Answer placed = client.postOrder("{\"customerId\":\"log-test\",\"amount\":2.50}");
    assertThat(placed.status()).as(placed.describe()).isEqualTo(202);
    String after = placed.json().required("after").asString();
    assertThat(client.keyAfter(ORDERS_PER_CUSTOMER, "log-test", after).status()).isEqualTo(200);
    assertThat(client.keyAfter(REVENUE_PER_CUSTOMER, "log-test", after).status()).isEqualTo(200);
    assertThat(client.key(ORDERS_PER_CUSTOMER, "no-such-customer").status()).isEqualTo(404);
    Instant now = Instant.now();
    assertThat(
            client
                .windows(
                    ORDERS_PER_CUSTOMER_PER_MINUTE,
                    "log-test",
                    now.minus(Duration.ofHours(1)).toString(),
                    now.plus(Duration.ofHours(1)).toString())
                .status())
        .isEqualTo(200);
  }

  /** A page of a scan and a streamed scan of the whole view. */
  private static void scan(HttpProbe http) throws InterruptedException {
    Answer page = http.get("/views/" + ORDERS_PER_CUSTOMER + "/keys?limit=5");
    assertThat(page.status()).as(page.describe()).isEqualTo(200);
    try (StreamedAnswer streamed =
        http.open("/views/" + ORDERS_PER_CUSTOMER + "/keys", "Accept", "application/x-ndjson")) {
      assertThat(streamed.status()).isEqualTo(200);
      assertThat(streamed.rest(STEP)).contains("\"nextCursor\":null");
    }
  }

  /**
   * Change streams of the whole view, fed by the sample's generator, and of one key, each left by
   * its client after its first events.
   */
  private static void followAndLeave(HttpProbe http) throws InterruptedException {
    List<ServerSentEventReader> streams = new ArrayList<>();
    for (int n = 0; n < 4; n++) {
      streams.add(http.events("/views/" + ORDERS_PER_CUSTOMER + "/changes"));
    }
    streams.add(http.events("/views/" + ORDERS_PER_CUSTOMER + "/keys/log-test/changes"));
    for (ServerSentEventReader stream : streams) {
      assertThat(stream.status()).isEqualTo(200);
      assertThat(stream.next(STEP).name()).isEqualTo("value");
    }
    assertThat(openStreams(http)).isEqualTo(streams.size());
    streams.forEach(ServerSentEventReader::close);
  }

  private static long openStreams(HttpProbe http) {
    Answer metric = http.get("/actuator/metrics/matview.changes.streams");
    assertThat(metric.status()).as(metric.describe()).isEqualTo(200);
    return metric.json().required("measurements").get(0).required("value").asLong();
  }

  private static List<String> warningsAndErrors(List<String> log) {
    return log.stream()
        .filter(line -> "WARN".equals(levelOf(line)) || "ERROR".equals(levelOf(line)))
        .toList();
  }

  private static String levelOf(String line) {
    Matcher level = LEVEL.matcher(line);
    return level.find() ? level.group(1) : "";
  }
}
