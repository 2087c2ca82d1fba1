package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.replica.StoreHandles;
import dev.matview.replica.WindowHandle;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
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
 * On a real broker, windows that Kafka's record cache holds and RocksDB does not yet (the commit
 * interval is ten minutes) in two of the store's 12-hour segments with an empty one between: a scan
 * over more than three days, which spans eight segments or more, answers each window exactly once,
 * as one page, page by page and streamed, the same windows that the key lookups answer; a page at
 * the last instant Kafka can store is empty.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
      "spring.kafka.streams.application-id=window-scan-cache-it",
      "spring.kafka.streams.state-dir=${java.io.tmpdir}/matview-window-scan-cache-it-${random.uuid}",
      "spring.kafka.streams.cleanup.on-shutdown=true",
      "spring.kafka.streams.properties.commit.interval.ms=600000",
      "matview.advertised-host=localhost",
      "matview.rocksdb.total-memory=64MB"
    })
@EmbeddedKafka(partitions = 1, topics = WindowScanRecordCacheIntegrationTests.TOPIC)
class WindowScanRecordCacheIntegrationTests {

  static final String TOPIC = "orders";

  private static final String PER_MINUTE = "orders-per-minute";

  private static final String HOPPING = "orders-per-six-minutes-every-minute";

  private static final int ORDERS = 100;

  private static final int KEYS = 10;

  private static final Duration APART = Duration.ofMinutes(1);

  private static final Duration SEGMENT = Duration.ofHours(12);

  /**
   * The start of the last whole 12-hour segment of the store before now: half the orders lie just
   * before the end of the segment two before it, half just after its start, a segment with none
   * between them, and none in the future.
   */
  private static final Instant SEGMENT_START =
      Instant.ofEpochMilli(
              Math.floorDiv(System.currentTimeMillis(), SEGMENT.toMillis()) * SEGMENT.toMillis())
          .minus(SEGMENT);

  private static final String RANGE =
      "from=" + SEGMENT_START.minus(Duration.ofDays(3)) + "&to=" + Instant.now();

  private final JsonMapper json = JsonMapper.builder().build();

  @LocalServerPort int port;

  @Autowired EmbeddedKafkaBroker broker;

  @Autowired StoreHandles handles;

  @Test
  void aScanOverSeveralSegmentsAnswersEachCachedWindowOnce() {
    HttpProbe http = HttpProbe.localhost(this.port).withTimeout(Duration.ofSeconds(30));
    await("the views served")
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                http.get("/views/" + PER_MINUTE + "/windows?" + RANGE).status() == 200
                    && http.get("/views/" + HOPPING + "/windows?" + RANGE).status() == 200);
    publish();
    await("every order looked up by its key")
        .atMost(Duration.ofSeconds(60))
        .until(() -> lookedUp(http, PER_MINUTE).size() == ORDERS);
    await("every hopping window looked up by its key")
        .atMost(Duration.ofSeconds(60))
        .until(() -> lookedUp(http, HOPPING).size() == 6 * ORDERS);

    for (String view : List.of(PER_MINUTE, HOPPING)) {
      WindowHandle<?> handle = this.handles.windowHandle(view, 0);
      assertThat(handle).isNotNull();
      assertThat(handle.hasUnwritten())
          .as("the record cache of %s holds windows RocksDB lacks", view)
          .isTrue();
      List<String> expected = lookedUp(http, view);
      assertThat(page(http, view))
          .as("one page of %s", view)
          .containsExactlyInAnyOrderElementsOf(expected);
      List<String> paged = pages(http, view, 7);
      assertThat(paged).as("pages of 7 of %s", view).containsExactlyInAnyOrderElementsOf(expected);
      List<String> streamed = streamed(http, view);
      assertThat(streamed).as("streamed %s", view).containsExactlyInAnyOrderElementsOf(expected);
      Instant last = Instant.ofEpochMilli(Long.MAX_VALUE);
      String range = "from=" + last.minusMillis(1) + "&to=" + last;
      HttpProbe.Answer atTheEnd =
          http.get("/views/" + view + "/windows?" + range.replace("+", "%2B"));
      assertThat(atTheEnd.status()).as("a page at the last instant Kafka can store").isEqualTo(200);
      assertThat(atTheEnd.json().path("items")).isEmpty();
      for (int key = 0; key < KEYS; key++) {
        HttpProbe.Answer keyAtTheEnd =
            http.get(
                "/views/"
                    + view
                    + "/keys/customer-"
                    + key
                    + "/windows?"
                    + range.replace("+", "%2B"));
        assertThat(keyAtTheEnd.status())
            .as("a key's windows at the last instant Kafka can store: %s", keyAtTheEnd.describe())
            .isEqualTo(200);
        assertThat(keyAtTheEnd.json().path("windows")).isEmpty();
      }
      assertThat(handle.hasUnwritten())
          .as("the record cache of %s still holds windows RocksDB lacks", view)
          .isTrue();
    }
  }

  private void publish() {
    Map<String, Object> config = KafkaTestUtils.producerProps(this.broker);
    try (Producer<String, String> producer =
        new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      for (int n = 0; n < ORDERS; n++) {
        Instant at =
            (n < ORDERS / 2)
                ? SEGMENT_START.minus(SEGMENT).minus(APART.multipliedBy(ORDERS / 2 - n))
                : SEGMENT_START.plus(APART.multipliedBy(n - ORDERS / 2));
        String key = "customer-" + (n % KEYS);
        producer.send(
            new ProducerRecord<>(
                TOPIC, null, at.toEpochMilli(), key, "{\"customer\":\"" + key + "\"}"));
      }
    }
  }

  /** Every window of every key that the key lookups answer, as key@start=value. */
  private List<String> lookedUp(HttpProbe http, String view) {
    List<String> windows = new ArrayList<>();
    for (int n = 0; n < KEYS; n++) {
      String key = "customer-" + n;
      HttpProbe.Answer answer = http.get("/views/" + view + "/keys/" + key + "/windows?" + RANGE);
      if (answer.status() != 200) {
        continue;
      }
      for (JsonNode window : answer.json().path("windows")) {
        windows.add(key + "@" + window.path("start").asText() + "=" + window.path("value"));
      }
    }
    return windows;
  }

  /** The windows of one page of up to 1,000. */
  private List<String> page(HttpProbe http, String view) {
    return items(http.get("/views/" + view + "/windows?" + RANGE + "&limit=1000").json());
  }

  /** Every window, read page by page through the cursors. */
  private List<String> pages(HttpProbe http, String view, int limit) {
    List<String> all = new ArrayList<>();
    Set<String> cursors = new HashSet<>();
    String cursor = "";
    while (true) {
      JsonNode page =
          http.get("/views/" + view + "/windows?" + RANGE + "&limit=" + limit + cursor).json();
      all.addAll(items(page));
      String next = page.path("nextCursor").asText("");
      if (next.isEmpty()) {
        return all;
      }
      assertThat(cursors.add(next)).as("a cursor seen before: %s", next).isTrue();
      assertThat(all).as("windows read page by page").hasSizeLessThanOrEqualTo(7 * 6 * ORDERS);
      cursor = "&cursor=" + next;
    }
  }

  private List<String> streamed(HttpProbe http, String view) {
    String body =
        http.get("/views/" + view + "/windows?" + RANGE, "Accept", "application/x-ndjson").body();
    return body.lines()
        .map(this.json::readTree)
        .filter(line -> line.has("key"))
        .map(this::item)
        .toList();
  }

  private List<String> items(JsonNode page) {
    List<String> items = new ArrayList<>();
    for (JsonNode item : page.path("items")) {
      items.add(item(item));
    }
    return items;
  }

  private String item(JsonNode item) {
    return item.path("key").asText() + "@" + item.path("start").asText() + "=" + item.path("value");
  }

  record Order(String customer) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class OrdersApp {

    @MaterializedView(PER_MINUTE)
    ViewDefinition<String, Order, Long> ordersPerMinute() {
      return Views.from(TOPIC, Order.class).windowedBy(ViewWindow.tumbling(APART)).count();
    }

    @MaterializedView(HOPPING)
    ViewDefinition<String, Order, Long> ordersPerSixMinutesEveryMinute() {
      return Views.from(TOPIC, Order.class)
          .windowedBy(ViewWindow.hopping(Duration.ofMinutes(6), APART))
          .count();
    }
  }
}
