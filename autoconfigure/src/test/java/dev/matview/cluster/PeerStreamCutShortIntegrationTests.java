package dev.matview.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.RawHttp;
import dev.matview.processes.http.RawStream;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A streamed scan whose other instance stops streaming its partition part of the way: the client
 * pauses past that instance's write timeout while the partition is being passed on, the instance
 * gives up writing, and the scan goes on from the last whole slice a slice at a time, so that the
 * client still gets every key exactly once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PeerStreamCutShortIntegrationTests {

  static final String TOPIC = "notes";

  static final String VIEW = "latest-note";

  private static final int NOTES = 8_000;

  /**
   * Ten kilobytes a note: each of the two partitions holds some forty megabytes of lines, more than
   * the kernel's largest receive buffer (32 MB here), so that what is left of the other instance's
   * partition when the client pauses cannot all wait in the asking instance's buffers.
   */
  private static final String TEXT = "n".repeat(10_000);

  private static final String SLICES = "/views/{view}/partitions/{partition}/keys";

  /** The most items of a slice, {@code matview.web.max-page-size}: about a megabyte. */
  private static final int SLICE = 100;

  @TempDir static Path stateDirs;

  private final JsonMapper mapper = JsonMapper.builder().build();

  private EmbeddedKafkaKraftBroker broker;

  private ClusterInstance asker;

  private ClusterInstance owner;

  @BeforeAll
  void startTwoInstancesAndPublishNotes() {
    this.broker = new EmbeddedKafkaKraftBroker(1, 2, TOPIC);
    this.broker.afterPropertiesSet();
    this.asker = start("asker", "60s");
    this.owner = start("owner", "1s");
    await("each instance owns one partition")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              assertThat(this.asker.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
              assertThat(this.owner.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
              assertThat(ownersOfPartitions()).hasSize(2);
            });
    Map<String, Object> config = KafkaTestUtils.producerProps(this.broker.getBrokersAsString());
    try (Producer<String, String> producer =
        new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      for (int n = 0; n < NOTES; n++) {
        producer.send(
            new ProducerRecord<>(
                TOPIC, key(n), this.mapper.writeValueAsString(new Note(key(n), TEXT))));
      }
    }
    await("the asker answers the first and the last note")
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              assertThat(
                      this.asker.http().get("/views/" + VIEW + "/keys/" + key(NOTES - 1)).status())
                  .isEqualTo(200);
              assertThat(this.asker.http().get("/views/" + VIEW + "/keys/" + key(0)).status())
                  .isEqualTo(200);
            });
  }

  @AfterAll
  void stopEverything() {
    for (ClusterInstance instance : new ClusterInstance[] {this.asker, this.owner}) {
      if (instance != null) {
        instance.close();
      }
    }
    if (this.broker != null) {
      this.broker.destroy();
    }
  }

  @Test
  void goesOnSliceBySliceWhenTheOtherInstanceStopsStreamingAndGivesEveryKeyOnce() {
    String pauseAt = keyOfOwnersPartition(SLICE);
    long asked = sliceRequests();
    try (RawStream scan = streamedScan()) {
      StringBuilder body = new StringBuilder();
      readPast(scan, body, "{\"key\":\"" + pauseAt + "\"");
      await("the other instance gave up writing its partition to the paused scan")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> sliceRequests() > asked);
      body.append(scan.rest());
      List<String> keys = keys(body.toString());
      assertThat(keys)
          .hasSize(NOTES)
          .containsExactlyInAnyOrderElementsOf(
              IntStream.range(0, NOTES).mapToObj(n -> key(n)).toList());
    }
    long ownersKeys =
        IntStream.range(0, NOTES)
            .filter(n -> locate(key(n)).activeHost().equals(this.owner.host()))
            .count();
    assertThat(sliceRequests() - asked)
        .as(
            "the stream, then the rest of the partition a slice at a time, fewer requests than"
                + " its %d keys in slices of %d alone take",
            ownersKeys, SLICE)
        .isGreaterThan(1)
        .isLessThan((ownersKeys + SLICE - 1) / SLICE);
  }

  /** Reads the lines of {@code scan} into {@code body} until one holds {@code marker}. */
  private static void readPast(RawStream scan, StringBuilder body, String marker) {
    for (String line = scan.next(Duration.ofSeconds(60));
        line != null;
        line = scan.next(Duration.ofSeconds(60))) {
      body.append(line).append('\n');
      if (line.contains(marker)) {
        return;
      }
    }
    throw new AssertionError("The scan ended before " + marker);
  }

  private ClusterInstance start(String name, String writeTimeout) {
    return ClusterInstance.start(
        NoteViews.class,
        this.broker.getBrokersAsString(),
        "peer-stream-cut-short-it",
        stateDirs.resolve(name),
        "--server.tomcat.connection-timeout=" + writeTimeout,
        "--matview.web.max-page-size=" + SLICE,
        "--spring.kafka.streams.properties.group.instance.id=" + name,
        "--matview.rocksdb.total-memory=64MB");
  }

  /** The partitions of the view's keys by the instance that owns each, as the asker sees them. */
  private Map<Integer, String> ownersOfPartitions() {
    Map<Integer, String> owners = new TreeMap<>();
    for (int n = 0; n < 200; n++) {
      KeyQueryMetadata metadata = locate(key(n));
      owners.put(metadata.partition(), metadata.activeHost().toString());
    }
    assertThat(new HashSet<>(owners.values()))
        .containsExactlyInAnyOrder(this.asker.host().toString(), this.owner.host().toString());
    return owners;
  }

  /**
   * The key at {@code index} in scan order of the partition that the other instance owns: the
   * client pauses once the stream has passed on a slice of it whole.
   */
  private String keyOfOwnersPartition(int index) {
    return IntStream.range(0, NOTES)
        .mapToObj(n -> key(n))
        .filter(key -> locate(key).activeHost().equals(this.owner.host()))
        .skip(index)
        .findFirst()
        .orElseThrow();
  }

  private KeyQueryMetadata locate(String key) {
    return this.asker.streams().queryMetadataForKey(VIEW, key, new StringSerializer());
  }

  /** How many requests for key slices the other instance has answered. */
  private long sliceRequests() {
    return this.owner
        .bean(MeterRegistry.class)
        .find("http.server.requests")
        .tag("uri", SLICES)
        .timers()
        .stream()
        .mapToLong(Timer::count)
        .sum();
  }

  /**
   * A streamed scan of the view's keys asked of the asker on a socket with a small receive buffer,
   * which the test stops reading: raw, since the scan must be held at the socket's buffers, which a
   * client library that reads ahead as fast as the body comes would empty.
   */
  private RawStream streamedScan() {
    return new RawHttp(this.asker.port(), Duration.ofSeconds(60))
        .open("/views/" + VIEW + "/keys", Map.of("Accept", "application/x-ndjson"), 64 * 1024);
  }

  /** The keys of a whole streamed scan's body, which must end with a line without a cursor. */
  private List<String> keys(String body) {
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

    /**
     * Fixed socket buffers of 32 KB for the servers, which the kernel does not grow, so that a
     * paused client holds the asking instance up at once.
     */
    @Bean
    TomcatConnectorCustomizer smallSocketBuffers() {
      return connector -> {
        connector.setProperty("socket.txBufSize", "32768");
        connector.setProperty("socket.rxBufSize", "32768");
      };
    }
  }
}
