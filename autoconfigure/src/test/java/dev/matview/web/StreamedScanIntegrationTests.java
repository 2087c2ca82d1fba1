package dev.matview.web;

import static dev.matview.processes.http.HttpProbe.encode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.RawHttp;
import dev.matview.processes.http.RawStream;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A streamed scan of a view of some twenty megabytes, over real sockets: a client that stops
 * reading holds the scan where its connection's buffers are full, and then gets every key once; a
 * client that goes away mid-stream resumes right after its last whole line; and the parameters a
 * streamed scan does not take are refused with a problem detail that names them.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
      "spring.kafka.streams.application-id=streamed-scan-it",
      "spring.kafka.streams.state-dir=${java.io.tmpdir}/matview-streamed-scan-it-${random.uuid}",
      "spring.kafka.streams.cleanup.on-shutdown=true",
      "matview.advertised-host=localhost",
      "matview.rocksdb.total-memory=64MB"
    })
@EmbeddedKafka(partitions = 3, topics = StreamedScanIntegrationTests.TOPIC)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamedScanIntegrationTests {

  static final String TOPIC = "notes";

  static final String VIEW = "latest-note";

  private static final int NOTES = 20_000;

  /** About a kilobyte a note: the view's lines add up to some twenty megabytes. */
  private static final String TEXT = "n".repeat(1_000);

  private static final String NDJSON = "application/x-ndjson";

  private final JsonMapper mapper = JsonMapper.builder().build();

  @LocalServerPort int port;

  @Autowired EmbeddedKafkaBroker broker;

  @Autowired MeterRegistry meters;

  private HttpProbe http;

  @BeforeAll
  void publishNotes() {
    this.http = HttpProbe.localhost(this.port).withTimeout(Duration.ofSeconds(30));
    Map<String, Object> config = KafkaTestUtils.producerProps(this.broker);
    try (Producer<String, String> producer =
        new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      for (int n = 0; n < NOTES; n++) {
        String key = key(n);
        producer.send(
            new ProducerRecord<>(TOPIC, key, this.mapper.writeValueAsString(new Note(key, TEXT))));
      }
    }
    await("every note in the view")
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () ->
                assertThat(
                        streamedKeys(this.http.get("/views/" + VIEW + "/keys", "Accept", NDJSON)))
                    .hasSize(NOTES));
  }

  @Test
  void aClientThatStopsReadingHoldsTheScanAtItsConnectionsBuffersThenGetsEveryKeyOnce()
      throws Exception {
    long before = streamedItems();
    try (RawStream scan = streamedScan(4096)) {
      AtomicLong lastSeen = new AtomicLong(-1);
      await("the scan held while its client reads nothing")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(500))
          .until(
              () -> {
                long sent = streamedItems() - before;
                return sent > 0 && sent == lastSeen.getAndSet(sent);
              });
      assertThat(lastSeen.get())
          .as("items written while the client read nothing, of %d", NOTES)
          .isLessThan(NOTES / 2);

      assertThat(streamedKeys(scan.rest())).hasSize(NOTES);
      assertThat(streamedItems() - before).isEqualTo(NOTES);
    }
  }

  @Test
  void aClientThatGoesAwayMidStreamResumesRightAfterItsLastWholeLine() throws Exception {
    List<String> whole = new ArrayList<>();
    try (RawStream scan = streamedScan(0)) {
      long read = 0;
      while (read < 3_000_000) {
        String line = scan.next(Duration.ofSeconds(30));
        if (line == null) {
          break;
        }
        whole.add(line);
        read += line.length() + 1;
      }
    }
    assertThat(whole).as("whole lines before the client went away").hasSizeBetween(1, NOTES - 1);
    List<String> keys = new ArrayList<>();
    for (String line : whole) {
      keys.add(this.mapper.readTree(line).path("key").asString());
    }

    HttpProbe.Answer rest =
        this.http.get(
            "/views/" + VIEW + "/keys?afterKey=" + encode(keys.get(keys.size() - 1)),
            "Accept",
            NDJSON);
    keys.addAll(streamedKeys(rest));
    assertThat(new HashSet<>(keys)).as("distinct keys").hasSize(keys.size());
    assertThat(keys).hasSize(NOTES);
  }

  @Test
  void refusesALimitOnAStreamedScanNamingIt() {
    HttpProbe.Answer answer = this.http.get("/views/" + VIEW + "/keys?limit=10", "Accept", NDJSON);
    assertProblem(answer, 400, "limit");
  }

  @Test
  void refusesAKeyToResumeAfterOutsideTheBoundsAndOnAPage() {
    assertProblem(
        this.http.get(
            "/views/" + VIEW + "/keys?from=note-00010&to=note-00020&afterKey=note-00030",
            "Accept",
            NDJSON),
        400,
        "afterKey");
    assertProblem(this.http.get("/views/" + VIEW + "/keys?afterKey=note-00030"), 400, "afterKey");
    assertProblem(
        this.http.get("/views/" + VIEW + "/keys?cursor=abc&afterKey=note-00030", "Accept", NDJSON),
        400,
        "cursor");
  }

  @Test
  void streamsTheKeysWithinBoundsInTheOrderOfThePages() {
    String bounds = "from=note-00100&to=note-00300";
    List<String> streamed =
        streamedKeys(this.http.get("/views/" + VIEW + "/keys?" + bounds, "Accept", NDJSON));
    List<String> paged = new ArrayList<>();
    String cursor = null;
    do {
      HttpProbe.Answer page =
          this.http.get(
              "/views/"
                  + VIEW
                  + "/keys?limit=37&"
                  + bounds
                  + (cursor != null ? "&cursor=" + encode(cursor) : ""));
      assertThat(page.status()).as(page.describe()).isEqualTo(200);
      page.json().path("items").forEach(item -> paged.add(item.path("key").asString()));
      cursor =
          page.json().path("nextCursor").isString()
              ? page.json().path("nextCursor").asString()
              : null;
    } while (cursor != null);
    assertThat(streamed).hasSize(201).containsExactlyElementsOf(paged);
  }

  /**
   * A streamed scan of the view's keys on a socket of its own, its receive buffer {@code
   * receiveBuffer} bytes unless 0: raw, since a client that stops reading must hold the scan at its
   * socket's buffers, and one that goes away must do so while the server still writes, which a
   * client library that reads ahead as fast as the body comes does not ensure.
   */
  private RawStream streamedScan(int receiveBuffer) {
    return new RawHttp(this.port, Duration.ofSeconds(30))
        .open("/views/" + VIEW + "/keys", Map.of("Accept", NDJSON), receiveBuffer);
  }

  private void assertProblem(HttpProbe.Answer answer, int status, String parameter) {
    assertThat(answer.status()).as(answer.describe()).isEqualTo(status);
    assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
    assertThat(answer.json().path("detail").asString()).as(answer.describe()).contains(parameter);
  }

  /** The keys of a whole streamed scan, which must end with a line without a cursor. */
  private List<String> streamedKeys(HttpProbe.Answer answer) {
    assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
    assertThat(answer.header("Content-Type")).startsWith(NDJSON);
    return streamedKeys(answer.body());
  }

  private List<String> streamedKeys(String body) {
    assertThat(body).endsWith("\n");
    String[] lines = body.split("\n");
    assertThat(this.mapper.readTree(lines[lines.length - 1]))
        .isEqualTo(this.mapper.readTree("{\"nextCursor\":null}"));
    List<String> keys = new ArrayList<>(lines.length - 1);
    Set<String> seen = new HashSet<>();
    for (int line = 0; line < lines.length - 1; line++) {
      JsonNode item = this.mapper.readTree(lines[line]);
      String key = item.path("key").asString();
      assertThat(seen.add(key)).as("%s streamed twice", key).isTrue();
      assertThat(item.path("value").path("text").asString()).isEqualTo(TEXT);
      keys.add(key);
    }
    return keys;
  }

  private long streamedItems() {
    Counter counter = this.meters.find("matview.scans.streamed.items").tag("view", VIEW).counter();
    return counter != null ? (long) counter.count() : 0;
  }

  private static String key(int n) {
    return String.format("note-%05d", n);
  }

  record Note(String id, String text) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class NoteViews {

    @MaterializedView(VIEW)
    ViewDefinition<String, Note, Note> latestNote() {
      return Views.from(TOPIC, Note.class).latest();
    }
  }
}
