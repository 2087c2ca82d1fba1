package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.ServerSentEventReader;
import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreHandles;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
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
 * On a real broker, a table view's updates wait in Kafka's record cache until a commit, which here
 * comes only when Kafka Streams closes: meanwhile every read (a key, a batch, a page, a streamed
 * scan, a re-keyed view's key) answers the latest update, a change stream hears each one, and the
 * changelog has none; the close then writes each key once, and once Kafka Streams runs again, scans
 * and lookups read RocksDB directly.
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
@EmbeddedKafka(partitions = 2, topics = RecordCacheIntegrationTests.TOPIC)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RecordCacheIntegrationTests {

  static final String TOPIC = "likes";

  private static final String PER_POST = "likes-per-post";

  private static final String PER_USER = "likes-per-user";

  private static final int LIKES = 200;

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
    await("the view served")
        .atMost(Duration.ofSeconds(60))
        .until(() -> http.get("/views/" + PER_POST + "/keys/post-1").status() == 404);
    List<Long> heard = new ArrayList<>();
    try (ServerSentEventReader events = changes(this.port, "/views/" + PER_POST + "/keys/post-1")) {
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
    }
    List<Long> expected = new ArrayList<>();
    for (long likes = 1; likes <= LIKES; likes++) {
      expected.add(likes);
    }
    assertThat(heard).as("values of post-1's change stream").containsExactlyElementsOf(expected);

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
  }

  @Test
  @Order(2)
  void aCommitWritesEachKeyOnceWithItsLatestValue() throws Exception {
    this.streams.stop();
    assertThat(changelogRecords(PER_POST)).as("post-1 and post-2, once each").isEqualTo(2);
    assertThat(changelogRecords(PER_USER)).as("alice, once").isEqualTo(1);
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
                    && http.get(range).status() == 200);
    for (int partition = 0; partition < 2; partition++) {
      ReplicaHandle handle = this.handles.handle(PER_POST, partition);
      assertThat(handle).isNotNull();
      assertThat(handle.hasUnwritten())
          .as("partition %d holds unwritten updates", partition)
          .isFalse();
    }
    JsonNode page = http.get(range).json();
    assertThat(page.path("items")).hasSize(2);
    assertThat(page.path("items").get(0).path("key").asText()).isEqualTo("post-1");
    assertThat(page.path("items").get(0).path("value").asLong()).isEqualTo(LIKES);
    assertThat(page.path("items").get(1).path("value").asLong()).isEqualTo(1);
    assertThat(value(http.get("/views/" + PER_USER + "/keys/alice"))).isEqualTo(LIKES + 1);
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
      for (int n = 0; n < LIKES; n++) {
        producer.send(new ProducerRecord<>(TOPIC, "post-1", like("post-1")));
      }
      producer.send(new ProducerRecord<>(TOPIC, "post-2", like("post-2")));
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

  private static long value(HttpProbe.Answer answer) {
    return (answer.status() == 200) ? answer.json().path("value").asLong() : -1;
  }

  /** Opens the change stream of the key at {@code path}. */
  private static ServerSentEventReader changes(int port, String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path + "/changes"))
            .header("Accept", "text/event-stream")
            .build();
    HttpResponse<Stream<String>> response =
        HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofLines());
    assertThat(response.statusCode()).isEqualTo(200);
    return new ServerSentEventReader(response.body());
  }

  record Like(String post, String user) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class LikesApp {

    @MaterializedView(PER_POST)
    ViewDefinition<String, Like, Long> likesPerPost() {
      return Views.from(TOPIC, Like.class).count();
    }

    @MaterializedView(PER_USER)
    ViewDefinition<String, Like, Long> likesPerUser() {
      return Views.from(TOPIC, Like.class).groupBy(String.class, Like::user).count();
    }
  }
}
