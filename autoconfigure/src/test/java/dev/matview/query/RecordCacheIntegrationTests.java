package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.ServerSentEvent;
import dev.matview.processes.http.ServerSentEventReader;
import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreHandles;
import dev.matview.replica.WindowHandle;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * On a real broker, a table, hopping-window or session view's updates wait in Kafka's record cache
 * until a commit, which here comes only when Kafka Streams closes: meanwhile every read (a key, a
 * batch, a page, a streamed scan, a re-keyed view's key, a key's windows or sessions, a page or
 * stream of windows or sessions) answers the latest update, sessions merged by a later record
 * included, a change stream hears each one, and the changelog has none; the close then writes each
 * key, window or session once, and once Kafka Streams runs again, scans and lookups read RocksDB
 * directly.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
      "spring.kafka.streams.application-id=record-cache-it",
      "spring.kafka.streams.state-dir=${java.io.tmpdir}/matview-record-cache-it-${random.uuid}",
      "spring.kafka.streams.cleanup.on-shutdown=true",
      "spring.kafka.streams.properties.commit.interval.ms=600000",
      "matview.advertised-host=localhost",
      "matview.rocksdb.total-memory=64MB"
    })
@EmbeddedKafka(
    partitions = 2,
    topics = {RecordCacheIntegrationTests.TOPIC, RecordCacheIntegrationTests.VISITS})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RecordCacheIntegrationTests {

  static final String TOPIC = "likes";

  static final String VISITS = "visits";

  private static final String SESSIONS = "visits-per-post-in-sessions";

  private static final String PER_POST = "likes-per-post";

  private static final String PER_USER = "likes-per-user";

  private static final String PER_POST_HOURLY = "likes-per-post-per-hour";

  private static final int LIKES = 200;

  /**
   * The event time of every like: each falls in the two hopping windows that start at 1h before.
   */
  private static final Instant LIKED_AT = Instant.now().truncatedTo(ChronoUnit.HOURS);

  /**
   * How far post-3's third visit lies from its first and second, which lie twice as far apart, more
   * than the inactivity gap: the third joins them in one session. None lies after {@link
   * #LIKED_AT}, so that none is in the future, which the event time bounds refuse.
   */
  private static final Duration VISIT_SPREAD = Duration.ofMinutes(20);

  /** The start of post-3's session once its three visits are merged. */
  private static final Instant MERGED_START = LIKED_AT.minus(VISIT_SPREAD.multipliedBy(2));

  private static final String WINDOW_RANGE =
      "from=" + LIKED_AT.minus(Duration.ofHours(1)) + "&to=" + LIKED_AT;

  private final JsonMapper json = JsonMapper.builder().build();

  @LocalServerPort int port;

  @Autowired EmbeddedKafkaBroker broker;

  @Autowired StreamsBuilderFactoryBean streams;

  @Autowired StoreHandles handles;

  @Test
  @Order(1)
  void everyReadAndChangeStreamSeesTheUpdatesTheCacheHoldsWhileTheChangelogHasNone()
      throws Exception {
    HttpProbe http = HttpProbe.localhost(this.port).withTimeout(Duration.ofSeconds(30));
    await("the views served")
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                http.get("/views/" + PER_POST + "/keys/post-1").status() == 404
                    && http.get("/views/" + PER_POST_HOURLY + "/windows?" + WINDOW_RANGE).status()
                        == 200
                    && http.get("/views/" + SESSIONS + "/windows?" + WINDOW_RANGE).status() == 200);
    List<Long> heard = new ArrayList<>();
    Map<String, List<Long>> heardByWindow = new TreeMap<>();
    try (ServerSentEventReader events = changes(this.port, "/views/" + PER_POST + "/keys/post-1");
        ServerSentEventReader windowEvents =
            changes(this.port, "/views/" + PER_POST_HOURLY + "/keys/post-1");
        ServerSentEventReader sessionEvents =
            changes(this.port, "/views/" + SESSIONS + "/keys/post-1")) {
      publish();
      await("the last like of post-1 looked up")
          .atMost(Duration.ofSeconds(60))
          .until(() -> value(http.get("/views/" + PER_POST + "/keys/post-1")) == LIKES);
      while (heard.size() < LIKES) {
        JsonNode data = this.json.readTree(events.next(Duration.ofSeconds(30)).data());
        if (data.has("value")) {
          heard.add(data.path("value").asLong());
        }
      }
      List<Long> heardOfSession = new ArrayList<>();
      while (heardOfSession.size() < LIKES) {
        ServerSentEvent event = sessionEvents.next(Duration.ofSeconds(30));
        if (event.name().equals("window")) {
          JsonNode data = this.json.readTree(event.data());
          assertThat(data.path("start").asText()).isEqualTo(LIKED_AT.toString());
          heardOfSession.add(data.path("value").asLong());
        }
      }
      assertThat(heardOfSession)
          .as("values of post-1's session's change stream")
          .containsExactlyElementsOf(oneTo(LIKES));
      int windowUpdates = 0;
      while (windowUpdates < 2 * LIKES) {
        ServerSentEvent event = windowEvents.next(Duration.ofSeconds(30));
        if (event.name().equals("window")) {
          JsonNode data = this.json.readTree(event.data());
          heardByWindow
              .computeIfAbsent(data.path("start").asText(), (start) -> new ArrayList<>())
              .add(data.path("value").asLong());
          windowUpdates++;
        }
      }
    }
    List<Long> expected = oneTo(LIKES);
    assertThat(heard).as("values of post-1's change stream").containsExactlyElementsOf(expected);
    assertThat(heardByWindow)
        .as("values of post-1's windows' change stream")
        .containsOnlyKeys(LIKED_AT.minus(Duration.ofHours(1)).toString(), LIKED_AT.toString())
        .allSatisfy((start, values) -> assertThat(values).containsExactlyElementsOf(expected));
    assertThat(windowValues(http, "post-1")).containsExactly((long) LIKES, (long) LIKES);
    assertThat(windowValues(http, "post-2")).containsExactly(1L, 1L);
    JsonNode windowPage = http.get("/views/" + PER_POST_HOURLY + "/windows?" + WINDOW_RANGE).json();
    assertThat(windowPage.path("items")).hasSize(4);
    for (JsonNode item : windowPage.path("items")) {
      assertThat(item.path("value").asLong())
          .isEqualTo(item.path("key").asText().equals("post-1") ? LIKES : 1);
    }
    String streamedWindows =
        http.get(
                "/views/" + PER_POST_HOURLY + "/windows?" + WINDOW_RANGE,
                "Accept",
                "application/x-ndjson")
            .body();
    assertThat(
            streamedWindows
                .lines()
                .map(this.json::readTree)
                .filter((line) -> line.has("key"))
                .map((line) -> line.path("key").asText() + "=" + line.path("value").asLong()))
        .containsExactlyInAnyOrder("post-1=" + LIKES, "post-1=" + LIKES, "post-2=1", "post-2=1");

    await("post-2 and alice, whose likes travel through other partitions, looked up")
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                value(http.get("/views/" + PER_POST + "/keys/post-2")) == 1
                    && value(http.get("/views/" + PER_USER + "/keys/alice")) == LIKES + 1);
    JsonNode batch =
        http.post(
                "/views/" + PER_POST + "/batch",
                Map.of("keys", List.of("post-1", "post-2")),
                "Content-Type",
                "application/json")
            .json();
    assertThat(batch.path("items").get(0).path("value").asLong()).isEqualTo(LIKES);
    assertThat(batch.path("items").get(1).path("value").asLong()).isEqualTo(1);
    JsonNode page = http.get("/views/" + PER_POST + "/keys").json();
    assertThat(page.path("items")).hasSize(2);
    for (JsonNode item : page.path("items")) {
      assertThat(item.path("value").asLong())
          .isEqualTo(item.path("key").asText().equals("post-1") ? LIKES : 1);
    }
    String streamed =
        http.get("/views/" + PER_USER + "/keys", "Accept", "application/x-ndjson").body();
    List<JsonNode> lines =
        streamed.lines().map(this.json::readTree).filter((line) -> line.has("key")).toList();
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0).path("key").asText()).isEqualTo("alice");
    assertThat(lines.get(0).path("value").asLong()).isEqualTo(LIKES + 1);

    assertThat(changelogRecords(PER_POST)).as("changelog records before a commit").isZero();
    assertThat(changelogRecords(PER_USER)).as("changelog records before a commit").isZero();
    assertThat(changelogRecords(PER_POST_HOURLY)).as("changelog records before a commit").isZero();

    assertThat(sessions(http, "post-1")).containsExactly(LIKED_AT + "=" + LIKES);
    assertThat(sessions(http, "post-3"))
        .as("post-3's two visits merged by the one between them")
        .containsExactly(MERGED_START + "=3");
    assertThat(sessionItems(http)).containsExactly("post-1=" + LIKES, "post-3=3");
    assertThat(changelogRecords(SESSIONS)).as("changelog records before a commit").isZero();
  }

  @Test
  @Order(2)
  void aCommitWritesEachKeyOnceWithItsLatestValue() throws Exception {
    this.streams.stop();
    assertThat(changelogRecords(PER_POST)).as("post-1 and post-2, once each").isEqualTo(2);
    assertThat(changelogRecords(PER_USER)).as("alice, once").isEqualTo(1);
    assertThat(changelogRecords(PER_POST_HOURLY))
        .as("the two windows of post-1 and of post-2, once each")
        .isEqualTo(4);
    assertThat(changelogRecords(SESSIONS))
        .as("post-1's session and post-3's merged one once each, the two merged away at most once")
        .isBetween(2L, 4L);
  }

  @Test
  @Order(3)
  void afterTheCommitScansAndLookupsReadRocksDbDirectly() {
    this.streams.start();
    HttpProbe http = HttpProbe.localhost(this.port).withTimeout(Duration.ofSeconds(30));
    String range = "/views/" + PER_POST + "/keys?from=post-0&to=post-9";
    await("the views served again, every partition of a scan included")
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                value(http.get("/views/" + PER_POST + "/keys/post-1")) == LIKES
                    && value(http.get("/views/" + PER_POST + "/keys/post-2")) == 1
                    && value(http.get("/views/" + PER_USER + "/keys/alice")) == LIKES + 1
                    && http.get(range).status() == 200
                    && http.get("/views/" + PER_POST_HOURLY + "/windows?" + WINDOW_RANGE).status()
                        == 200);
    for (int partition = 0; partition < 2; partition++) {
      ReplicaHandle handle = this.handles.handle(PER_POST, partition);
      assertThat(handle).isNotNull();
      assertThat(handle.hasUnwritten())
          .as("partition %d holds unwritten updates", partition)
          .isFalse();
      WindowHandle<?> windows = this.handles.windowHandle(PER_POST_HOURLY, partition);
      assertThat(windows).isNotNull();
      assertThat(windows.hasUnwritten())
          .as("partition %d holds unwritten windows", partition)
          .isFalse();
      WindowHandle<?> sessions = this.handles.sessionHandle(SESSIONS, partition);
      assertThat(sessions).isNotNull();
      assertThat(sessions.hasUnwritten())
          .as("partition %d holds unwritten sessions", partition)
          .isFalse();
    }
    assertThat(windowValues(http, "post-1")).containsExactly((long) LIKES, (long) LIKES);
    JsonNode windowPage = http.get("/views/" + PER_POST_HOURLY + "/windows?" + WINDOW_RANGE).json();
    assertThat(windowPage.path("items")).hasSize(4);
    for (JsonNode item : windowPage.path("items")) {
      assertThat(item.path("value").asLong())
          .isEqualTo(item.path("key").asText().equals("post-1") ? LIKES : 1);
    }
    JsonNode page = http.get(range).json();
    assertThat(page.path("items")).hasSize(2);
    assertThat(page.path("items").get(0).path("key").asText()).isEqualTo("post-1");
    assertThat(page.path("items").get(0).path("value").asLong()).isEqualTo(LIKES);
    assertThat(page.path("items").get(1).path("value").asLong()).isEqualTo(1);
    assertThat(value(http.get("/views/" + PER_USER + "/keys/alice"))).isEqualTo(LIKES + 1);
    assertThat(sessions(http, "post-3")).containsExactly(MERGED_START + "=3");
    assertThat(sessionItems(http)).containsExactly("post-1=" + LIKES, "post-3=3");
    JsonNode first = http.get("/views/" + PER_POST + "/keys?limit=1").json();
    assertThat(first.path("items")).hasSize(1);
    JsonNode rest =
        http.get("/views/" + PER_POST + "/keys?cursor=" + first.path("nextCursor").asText()).json();
    assertThat(rest.path("items")).hasSize(1);
    assertThat(rest.path("items").get(0).path("key").asText())
        .isNotEqualTo(first.path("items").get(0).path("key").asText());
  }

  private void publish() {
    Map<String, Object> config = KafkaTestUtils.producerProps(this.broker);
    try (Producer<String, String> producer =
        new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      long at = LIKED_AT.toEpochMilli();
      for (int n = 0; n < LIKES; n++) {
        producer.send(new ProducerRecord<>(TOPIC, null, at, "post-1", like("post-1")));
      }
      producer.send(new ProducerRecord<>(TOPIC, null, at, "post-2", like("post-2")));
      long spread = VISIT_SPREAD.toMillis();
      for (long visit : new long[] {at - 2 * spread, at, at - spread}) {
        producer.send(new ProducerRecord<>(VISITS, null, visit, "post-3", like("post-3")));
      }
      for (int n = 0; n < LIKES; n++) {
        producer.send(new ProducerRecord<>(VISITS, null, at, "post-1", like("post-1")));
      }
    }
  }

  private String like(String post) {
    return this.json.writeValueAsString(new Like(post, "alice"));
  }

  private long changelogRecords(String view) throws Exception {
    String topic = "record-cache-it-" + view + "-changelog";
    try (Admin admin =
        Admin.create(Map.of("bootstrap.servers", this.broker.getBrokersAsString()))) {
      long records = 0;
      for (int partition = 0; partition < 2; partition++) {
        records +=
            admin
                .listOffsets(Map.of(new TopicPartition(topic, partition), OffsetSpec.latest()))
                .all()
                .get()
                .values()
                .iterator()
                .next()
                .offset();
      }
      return records;
    }
  }

  /** The values of {@code post}'s windows that start in the window range, oldest first. */
  private static List<Long> windowValues(HttpProbe http, String post) {
    JsonNode windows =
        http.get("/views/" + PER_POST_HOURLY + "/keys/" + post + "/windows?" + WINDOW_RANGE)
            .json()
            .path("windows");
    List<Long> values = new ArrayList<>();
    for (JsonNode window : windows) {
      values.add(window.path("value").asLong());
    }
    return values;
  }

  /** {@code post}'s sessions that start in the window range, oldest first, as start=value. */
  private static List<String> sessions(HttpProbe http, String post) {
    JsonNode sessions =
        http.get("/views/" + SESSIONS + "/keys/" + post + "/windows?" + WINDOW_RANGE)
            .json()
            .path("windows");
    List<String> found = new ArrayList<>();
    for (JsonNode session : sessions) {
      found.add(session.path("start").asText() + "=" + session.path("value").asLong());
    }
    return found;
  }

  /** The items of a page of every session that starts in the window range, as key=value. */
  private static List<String> sessionItems(HttpProbe http) {
    List<String> items = new ArrayList<>();
    for (JsonNode item :
        http.get("/views/" + SESSIONS + "/windows?" + WINDOW_RANGE).json().path("items")) {
      items.add(item.path("key").asText() + "=" + item.path("value").asLong());
    }
    return items;
  }

  private static List<Long> oneTo(int last) {
    List<Long> values = new ArrayList<>();
    for (long value = 1; value <= last; value++) {
      values.add(value);
    }
    return values;
  }

  private static long value(HttpProbe.Answer answer) {
    return (answer.status() == 200) ? answer.json().path("value").asLong() : -1;
  }

  /**
   * Opens the change stream of the key at {@code path}, once its partition is served here: a 503
   * while the instance still settles its assignment is asked again.
   */
  private static ServerSentEventReader changes(int port, String path) {
    return await("the change stream of " + path + " opened")
        .atMost(Duration.ofSeconds(60))
        .until(() -> openedChanges(port, path), Objects::nonNull);
  }

  private static @Nullable ServerSentEventReader openedChanges(int port, String path) {
    ServerSentEventReader events =
        HttpProbe.localhost(port).withTimeout(Duration.ofSeconds(30)).events(path + "/changes");
    if (events.status() == 503) {
      events.close();
      return null;
    }
    assertThat(events.status()).as("status of the change stream of %s", path).isEqualTo(200);
    return events;
  }

  record Like(String post, String user) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class LikesApp {

    @MaterializedView(PER_POST)
    ViewDefinition<String, Like, Long> likesPerPost() {
      return Views.from(TOPIC, Like.class).count();
    }

    @MaterializedView(PER_POST_HOURLY)
    ViewDefinition<String, Like, Long> likesPerPostPerHour() {
      return Views.from(TOPIC, Like.class)
          .windowedBy(ViewWindow.hopping(Duration.ofHours(2), Duration.ofHours(1)))
          .count();
    }

    @MaterializedView(SESSIONS)
    ViewDefinition<String, Like, Long> visitsPerPostInSessions() {
      return Views.from(VISITS, Like.class)
          .windowedBy(ViewWindow.session(Duration.ofMinutes(30)))
          .count();
    }

    @MaterializedView(PER_USER)
    ViewDefinition<String, Like, Long> likesPerUser() {
      return Views.from(TOPIC, Like.class).groupBy(String.class, Like::user).count();
    }
  }
}
