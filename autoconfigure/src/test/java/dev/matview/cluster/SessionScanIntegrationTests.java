package dev.matview.cluster;

import static dev.matview.processes.http.HttpProbe.encode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.kafka.ActivePartitions;
import dev.matview.processes.http.HttpProbe;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
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
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A session view on two instances of one application, on an in-process KRaft broker: its window
 * scan and its key window lookups answer exactly the sessions whose start lies in [from, to], from
 * the owner's store and through forwarding alike, and a scan paged one item at a time yields each
 * such session exactly once, in partition, key and start order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionScanIntegrationTests {

  static final String TOPIC = "visits";

  static final String SESSIONS = "visit-sessions";

  private static final int PARTITIONS = 4;

  private static final Duration GAP = Duration.ofMinutes(5);

  /**
   * Grace longer than the visits' spread: visitors are published one after another, so each
   * partition's stream time is already past the early visits of the visitors that come later.
   */
  private static final Duration GRACE = Duration.ofHours(3);

  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  /** The start of the range asked: sessions may start exactly here, or before and end after. */
  private static final Instant FROM = minutes(30);

  /** The end of the range asked: sessions may start exactly here and end after it. */
  private static final Instant TO = minutes(60);

  private static final List<String> KEYS =
      IntStream.rangeClosed(1, 12).mapToObj(n -> String.format("visitor-%02d", n)).toList();

  @TempDir static Path stateDirs;

  private final JsonMapper mapper = JsonMapper.builder().build();

  private final List<Instance> instances = new ArrayList<>();

  private EmbeddedKafkaKraftBroker broker;

  @BeforeAll
  void startTwoInstancesAndPublishVisits() {
    this.broker = new EmbeddedKafkaKraftBroker(1, PARTITIONS, TOPIC);
    this.broker.afterPropertiesSet();
    for (int n = 1; n <= 2; n++) {
      this.instances.add(Instance.start(n, this.broker.getBrokersAsString()));
    }
    // The visits are months old, so the broker soon deletes them from the view's changelog (its
    // retention follows the store's): a partition that moved after its visits were counted would
    // be restored without them.
    ActivePartitions.awaitSharedOut(
        this.instances.stream().map(Instance::streams).toList(), TOPIC, PARTITIONS);
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.broker),
            new StringSerializer(),
            new StringSerializer())) {
      for (int i = 0; i < KEYS.size(); i++) {
        for (Instant at : visits(i)) {
          producer.send(
              new ProducerRecord<>(
                  TOPIC, KEYS.get(i), this.mapper.writeValueAsString(new Visit(at))));
        }
      }
    }
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(300))
        .untilAsserted(
            () -> {
              for (Instance instance : this.instances) {
                assertThat(instance.state())
                    .as(instance.name())
                    .isEqualTo(KafkaStreams.State.RUNNING);
              }
              for (int i = 0; i < KEYS.size(); i++) {
                HttpProbe.Answer answer =
                    this.instances.get(0).http().get(keyWindows(KEYS.get(i), T0, minutes(120)));
                assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
                assertThat(sessions(KEYS.get(i), answer.json().path("windows")))
                    .as(answer.describe())
                    .isEqualTo(sessionsOf(i));
              }
            });
  }

  @AfterAll
  void stopEverything() {
    this.instances.forEach(Instance::stop);
    if (this.broker != null) {
      this.broker.destroy();
    }
  }

  @Test
  void placesTheVisitorsOnPartitionsOwnedByEachInstance() {
    Set<String> owners =
        KEYS.stream()
            .map(key -> this.instances.get(0).http().get(keyWindows(key, FROM, TO)))
            .map(answer -> answer.header("Matview-Served-By"))
            .collect(Collectors.toSet());
    assertThat(owners)
        .containsExactlyInAnyOrderElementsOf(
            this.instances.stream().map(instance -> instance.http().address()).toList());
  }

  @Test
  void scansExactlyTheSessionsStartingInTheRangeOncePagingOneAtATimeFromEachInstance() {
    List<Session> expected = expectedScan(FROM, TO);
    assertThat(expected)
        .as("sessions that start in the range")
        .hasSizeGreaterThan(KEYS.size())
        .extracting(Session::start)
        .contains(FROM, TO);
    for (Instance instance : this.instances) {
      List<JsonNode> items = scan(instance, FROM, TO, 1);
      assertThat(items.stream().map(this::session).toList())
          .as(instance.name() + " scan of [" + FROM + ", " + TO + "] a session at a time")
          .containsExactlyElementsOf(expected);
    }
  }

  @Test
  void scansEverySessionOnceInPagesOfSeveralFromEachInstance() {
    List<Session> expected = expectedScan(T0, minutes(120));
    for (Instance instance : this.instances) {
      assertThat(scan(instance, T0, minutes(120), 5).stream().map(this::session).toList())
          .as(instance.name() + " scan of every session in pages of 5")
          .containsExactlyElementsOf(expected);
    }
  }

  @Test
  void answersTheSessionsOfAKeyStartingInTheRangeFromTheOwnerAndThroughForwarding() {
    for (int i = 0; i < KEYS.size(); i++) {
      String key = KEYS.get(i);
      List<Session> expected =
          sessionsOf(i).stream().filter(session -> session.startsIn(FROM, TO)).toList();
      Set<String> servedBy = new java.util.HashSet<>();
      for (Instance instance : this.instances) {
        HttpProbe.Answer answer = instance.http().get(keyWindows(key, FROM, TO));
        assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
        assertThat(sessions(key, answer.json().path("windows")))
            .as(answer.describe())
            .isEqualTo(expected);
        servedBy.add(answer.header("Matview-Served-By"));
      }
      assertThat(servedBy).as("the owner of " + key + " answers for both instances").hasSize(1);
    }
  }

  @Test
  void answersAnEmptyListForAKeyWithNoSessionStartingInTheRange() {
    for (Instance instance : this.instances) {
      HttpProbe.Answer answer =
          instance.http().get(keyWindows(KEYS.get(0), minutes(80), minutes(90)));
      assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
      assertThat(answer.json().path("windows").isArray()).as(answer.describe()).isTrue();
      assertThat(answer.json().path("windows")).as(answer.describe()).isEmpty();
    }
  }

  /**
   * The event times of the visits of the key at {@code index}, which make these sessions (gap 5
   * minutes): one wholly before the range; for even keys one that starts before the range and ends
   * in it, for odd keys one that starts exactly at its start; one inside it; for every third key
   * one that starts exactly at its end and ends after it; one wholly after it.
   */
  private static List<Instant> visits(int index) {
    List<Instant> visits = new ArrayList<>(List.of(minutes(0)));
    if (index % 2 == 0) {
      visits.addAll(List.of(minutes(20), minutes(24), minutes(28), minutes(32)));
    } else {
      visits.addAll(List.of(minutes(30), minutes(33)));
    }
    visits.addAll(List.of(minutes(45), minutes(45).plusSeconds(index + 1)));
    if (index % 3 == 0) {
      visits.addAll(List.of(minutes(60), minutes(64)));
    }
    visits.add(minutes(70));
    return visits;
  }

  /** The sessions of the key at {@code index}, oldest first, computed from its visits. */
  private static List<Session> sessionsOf(int index) {
    List<Session> sessions = new ArrayList<>();
    for (Instant at : visits(index)) {
      Session last = sessions.isEmpty() ? null : sessions.get(sessions.size() - 1);
      if (last != null && !at.isAfter(last.end().plus(GAP))) {
        sessions.set(
            sessions.size() - 1, new Session(last.key(), last.start(), at, last.count() + 1));
      } else {
        sessions.add(new Session(KEYS.get(index), at, at, 1));
      }
    }
    return sessions;
  }

  /** The sessions a scan of [from, to] answers, in partition, key and start order. */
  private List<Session> expectedScan(Instant from, Instant to) {
    Map<String, Integer> partitions = new LinkedHashMap<>();
    KEYS.forEach(key -> partitions.put(key, this.instances.get(0).partition(key)));
    return IntStream.range(0, KEYS.size())
        .boxed()
        .flatMap(i -> sessionsOf(i).stream())
        .filter(session -> session.startsIn(from, to))
        .sorted(
            Comparator.<Session>comparingInt(session -> partitions.get(session.key()))
                .thenComparing(Session::key)
                .thenComparing(Session::start))
        .toList();
  }

  /** Every item of a window scan from {@code instance}, following cursors until there are none. */
  private List<JsonNode> scan(Instance instance, Instant from, Instant to, int limit) {
    String first = "/views/" + SESSIONS + "/windows?from=" + from + "&to=" + to + "&limit=" + limit;
    List<JsonNode> items = new ArrayList<>();
    String cursor = null;
    for (int page = 0; page < 500; page++) {
      HttpProbe.Answer answer =
          instance.http().get(cursor == null ? first : first + "&cursor=" + encode(cursor));
      assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
      assertThat(answer.header("Content-Type")).startsWith("application/json");
      JsonNode pageItems = answer.json().path("items");
      assertThat(pageItems.size()).as(answer.describe()).isBetween(0, limit);
      pageItems.forEach(items::add);
      JsonNode next = answer.json().path("nextCursor");
      if (next.isNull()) {
        return items;
      }
      assertThat(pageItems.size()).as(answer.describe()).isEqualTo(limit);
      cursor = next.asString();
    }
    throw new AssertionError("A scan of " + first + " did not end after 500 pages");
  }

  private Session session(JsonNode item) {
    return new Session(
        item.path("key").asString(),
        Instant.parse(item.path("start").asString()),
        Instant.parse(item.path("end").asString()),
        item.path("value").asLong());
  }

  private List<Session> sessions(String key, JsonNode windows) {
    List<Session> sessions = new ArrayList<>();
    for (JsonNode window : windows) {
      sessions.add(
          new Session(
              key,
              Instant.parse(window.path("start").asString()),
              Instant.parse(window.path("end").asString()),
              window.path("value").asLong()));
    }
    return sessions;
  }

  private static String keyWindows(String key, Instant from, Instant to) {
    return "/views/" + SESSIONS + "/keys/" + encode(key) + "/windows?from=" + from + "&to=" + to;
  }

  private static Instant minutes(int minutes) {
    return T0.plus(Duration.ofMinutes(minutes));
  }

  /**
   * One session of one visitor.
   *
   * @param key the visitor
   * @param start the time of its first visit
   * @param end the time of its last visit
   * @param count its visits
   */
  record Session(String key, Instant start, Instant end, long count) {

    boolean startsIn(Instant from, Instant to) {
      return !this.start.isBefore(from) && !this.start.isAfter(to);
    }
  }

  record Visit(Instant at) {}

  /**
   * One instance of the application, its context and an HTTP client for its port; settings are
   * command-line arguments so that system properties left by other tests in this JVM cannot
   * override them.
   */
  private record Instance(String name, ConfigurableApplicationContext context, HttpProbe http) {

    static Instance start(int n, String brokers) {
      String name = "instance-" + n;
      ConfigurableApplicationContext context =
          new SpringApplicationBuilder(SessionApp.class)
              .run(
                  "--spring.main.banner-mode=off",
                  "--server.port=0",
                  "--spring.kafka.bootstrap-servers=" + brokers,
                  "--spring.kafka.streams.application-id=session-scan-it",
                  "--spring.kafka.streams.state-dir=" + stateDirs.resolve(name),
                  "--spring.kafka.streams.properties.commit.interval.ms=100",
                  "--matview.advertised-host=localhost",
                  "--matview.forwarding.timeout=5s",
                  "--matview.rocksdb.total-memory=16MB");
      int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
      return new Instance(name, context, HttpProbe.localhost(port));
    }

    KafkaStreams.State state() {
      KafkaStreams streams = streams();
      return streams != null ? streams.state() : KafkaStreams.State.CREATED;
    }

    int partition(String key) {
      return streams().queryMetadataForKey(SESSIONS, key, new StringSerializer()).partition();
    }

    void stop() {
      this.context.close();
    }

    KafkaStreams streams() {
      return this.context.getBean(StreamsBuilderFactoryBean.class).getKafkaStreams();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class SessionApp {

    @MaterializedView(SESSIONS)
    ViewDefinition<String, Visit, Long> visitSessions() {
      return Views.from(TOPIC, Visit.class)
          .eventTime(Visit::at)
          .windowedBy(ViewWindow.session(GAP).withGrace(GRACE))
          .count();
    }
  }
}
