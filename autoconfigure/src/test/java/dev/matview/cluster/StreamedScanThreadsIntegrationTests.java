package dev.matview.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Streamed scans across two instances that wait for the other instance: a hundred scans asked of
 * one instance wait together for the partition the other owns, whose streams of slices the other
 * holds back, with the asked instance's request threads idle, whether they wait for their first
 * slice or after the lines of the partition read here; each gets every key once as soon as the
 * other instance streams; and when the other instance refuses, the scan answers its problem detail,
 * or ends with it after the lines it sent.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamedScanThreadsIntegrationTests {

  static final String TOPIC = "notes";

  static final String VIEW = "latest-note";

  private static final int NOTES = 400;

  private static final int SCANS = 100;

  private static final String SCAN = "/views/" + VIEW + "/keys";

  private static final String NDJSON = "application/x-ndjson";

  @TempDir static Path stateDirs;

  private final JsonMapper mapper = JsonMapper.builder().build();

  private EmbeddedKafkaKraftBroker broker;

  /** The instance that owns partition 0: a scan asked of it waits after the lines it reads. */
  private ClusterInstance first;

  /** The instance that owns partition 1: a scan asked of it waits for its first slice. */
  private ClusterInstance second;

  @BeforeAll
  void startTwoInstancesAndPublishNotes() {
    this.broker = new EmbeddedKafkaKraftBroker(1, 2, TOPIC);
    this.broker.afterPropertiesSet();
    ClusterInstance one = start("one");
    ClusterInstance two = start("two");
    await("each instance owns one partition")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              assertThat(one.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
              assertThat(two.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
              assertThat(activeHosts(one)).hasSize(2);
            });
    boolean oneFirst =
        one.streams().metadataForAllStreamsClients().stream()
            .filter(client -> client.hostInfo().equals(one.host()))
            .flatMap(client -> client.topicPartitions().stream())
            .anyMatch(partition -> partition.topic().equals(TOPIC) && partition.partition() == 0);
    this.first = oneFirst ? one : two;
    this.second = oneFirst ? two : one;
    Map<String, Object> config = KafkaTestUtils.producerProps(this.broker.getBrokersAsString());
    try (Producer<String, String> producer =
        new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      for (int n = 0; n < NOTES; n++) {
        producer.send(new ProducerRecord<>(TOPIC, key(n), "{\"id\":\"" + key(n) + "\"}"));
      }
    }
    for (ClusterInstance instance : List.of(one, two)) {
      await("every note streamed")
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(500))
          .untilAsserted(
              () ->
                  assertThat(keys(instance.http().get(SCAN, "Accept", NDJSON).body()))
                      .hasSize(NOTES));
    }
  }

  @AfterAll
  void stopEverything() {
    SliceStreamGate.open();
    for (ClusterInstance instance : new ClusterInstance[] {this.first, this.second}) {
      if (instance != null) {
        instance.close();
      }
    }
    if (this.broker != null) {
      this.broker.destroy();
    }
  }

  @Test
  void streamedScansThatWaitForTheOtherInstanceAfterTheirFirstLinesHoldNoRequestThread()
      throws Exception {
    assertWaitingScansHoldNoRequestThread(this.first);
  }

  @Test
  void streamedScansThatWaitForTheirFirstSliceHoldNoRequestThread() throws Exception {
    assertWaitingScansHoldNoRequestThread(this.second);
  }

  @Test
  void answersTheOtherInstancesRefusalOfTheFirstSliceAsItsProblemDetail() {
    SliceStreamGate.refuse();
    try {
      HttpProbe.Answer answer = this.second.http().get(SCAN, "Accept", NDJSON);
      assertThat(answer.status()).as(answer.describe()).isEqualTo(503);
      assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
      assertThat(answer.header("Retry-After")).isEqualTo("1");
      assertThat(answer.json().path("detail").asString()).isEqualTo(SliceStreamGate.REFUSAL);
    } finally {
      SliceStreamGate.open();
    }
  }

  @Test
  void endsWithTheOtherInstancesRefusalAfterTheLinesReadHere() {
    SliceStreamGate.refuse();
    try {
      HttpProbe.Answer answer = this.first.http().get(SCAN, "Accept", NDJSON);
      assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
      String[] lines = answer.body().split("\n");
      assertThat(lines.length).as("the lines of partition 0, then the last").isGreaterThan(1);
      JsonNode last = this.mapper.readTree(lines[lines.length - 1]);
      assertThat(last.path("nextCursor").isString()).as(last.toString()).isTrue();
      assertThat(last.path("problem").path("detail").asString()).isEqualTo(SliceStreamGate.REFUSAL);
    } finally {
      SliceStreamGate.open();
    }
  }

  /**
   * A hundred streamed scans asked of {@code asked} wait for the other instance's partition with no
   * request thread of {@code asked} busy, and then each gets every key once.
   */
  private void assertWaitingScansHoldNoRequestThread(ClusterInstance asked) throws Exception {
    HttpProbe http = asked.http().withTimeout(Duration.ofSeconds(60));
    List<CompletableFuture<HttpProbe.Answer>> scans = new ArrayList<>();
    SliceStreamGate.hold();
    try {
      for (int i = 0; i < SCANS; i++) {
        scans.add(http.sendAsync("GET", SCAN, null, "Accept", NDJSON));
      }
      await("every scan waits for the partition of the other instance")
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(SliceStreamGate.held()).isEqualTo(SCANS);
                assertThat(asked.requestThreadsBusy())
                    .as("request threads busy on the asked instance while %d scans wait", SCANS)
                    .isLessThan(10);
              });
      assertThat(scans).noneMatch(CompletableFuture::isDone);
    } finally {
      SliceStreamGate.open();
    }
    for (CompletableFuture<HttpProbe.Answer> answer : scans) {
      HttpProbe.Answer response = answer.get(60, TimeUnit.SECONDS);
      assertThat(response.status()).as(response.body()).isEqualTo(200);
      assertThat(keys(response.body()))
          .containsExactlyInAnyOrderElementsOf(
              IntStream.range(0, NOTES).mapToObj(n -> key(n)).toList());
    }
  }

  private ClusterInstance start(String name) {
    return ClusterInstance.start(
        NoteViews.class,
        this.broker.getBrokersAsString(),
        "streamed-scan-threads-it",
        stateDirs.resolve(name),
        "--matview.forwarding.timeout=60s",
        "--matview.web.max-page-size=50",
        "--spring.kafka.streams.properties.group.instance.id=" + name);
  }

  /** The hosts of the partitions' active replicas, as {@code instance} sees them. */
  private static Set<String> activeHosts(ClusterInstance instance) {
    Set<String> hosts = new HashSet<>();
    for (int n = 0; n < 100; n++) {
      hosts.add(
          instance
              .streams()
              .queryMetadataForKey(VIEW, key(n), new StringSerializer())
              .activeHost()
              .toString());
    }
    return hosts;
  }

  /** The keys of a whole streamed scan's body, which must end with a line without a cursor. */
  private List<String> keys(String body) {
    String[] lines = body.split("\n");
    assertThat(this.mapper.readTree(lines[lines.length - 1]))
        .isEqualTo(this.mapper.readTree("{\"nextCursor\":null}"));
    List<String> keys = new ArrayList<>(lines.length - 1);
    for (int line = 0; line < lines.length - 1; line++) {
      JsonNode item = this.mapper.readTree(lines[line]);
      keys.add(item.path("key").asString());
    }
    assertThat(new HashSet<>(keys)).as("distinct keys").hasSize(keys.size());
    return keys;
  }

  private static String key(int n) {
    return String.format("note-%05d", n);
  }

  record Note(String id) {}

  /**
   * Holds every request for a stream of slices, on the thread that serves it, while the test holds
   * them: the instance that owns the partition streams nothing until then; or refuses every request
   * for slices with a 503 problem detail while the test says so.
   */
  static final class SliceStreamGate implements Filter {

    static final String REFUSAL = "The test refuses slices";

    private static final AtomicInteger held = new AtomicInteger();

    private static volatile CountDownLatch holding = new CountDownLatch(0);

    private static volatile boolean refusing;

    static void hold() {
      holding = new CountDownLatch(1);
    }

    static void refuse() {
      refusing = true;
    }

    static void open() {
      refusing = false;
      holding.countDown();
    }

    static int held() {
      return held.get();
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
        throws IOException, ServletException {
      String path = ((HttpServletRequest) request).getRequestURI();
      if (refusing && path.contains("/partitions/")) {
        HttpServletResponse refused = (HttpServletResponse) response;
        refused.setStatus(503);
        refused.setHeader("Retry-After", "1");
        refused.setContentType("application/problem+json");
        refused.getWriter().write("{\"status\":503,\"detail\":\"" + REFUSAL + "\"}");
        return;
      }
      if ("stream".equals(request.getParameter("form"))) {
        held.incrementAndGet();
        try {
          holding.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
        } finally {
          held.decrementAndGet();
        }
      }
      chain.doFilter(request, response);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class NoteViews {

    @MaterializedView(VIEW)
    ViewDefinition<String, Note, Note> latestNote() {
      return Views.from(TOPIC, Note.class).latest();
    }

    @Bean
    Filter sliceStreamGate() {
      return new SliceStreamGate();
    }
  }
}
