package dev.matview.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.kafka.ActivePartitions;
import dev.matview.peer.PeerRequests;
import dev.matview.peer.PeerTrust;
import dev.matview.processes.http.HttpProbe;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two instances of one application on an in-process KRaft broker, with a table of String keys that
 * hold the characters URLs make hard ({@code ;}, {@code %}, {@code +}, {@code /}, {@code \\},
 * spaces, unicode, dot segments), a table of Long keys and a windowed view, all holding known
 * counts.
 */
final class HostileCluster implements AutoCloseable {

  static final String TOPIC = "items";

  static final String PER_ITEM = "per-item";

  static final String PER_QUANTITY = "per-quantity";

  static final String PER_MINUTE = "per-minute";

  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  private static final int PARTITIONS = 4;

  /**
   * Each key is sent (index + 1) times, with quantity index + 1, at T0 + index minutes; the cluster
   * is ready once both the source-keyed and the re-keyed table hold every key on every instance,
   * and a scan of the windowed view finds every key's window from every instance: each partition is
   * served, so the rebalances of the second instance's arrival are over (a lookup that gets no
   * answer in time meanwhile is asked again).
   */
  static final List<String> KEYS =
      List.of(
          "alpha",
          "a;b",
          "100%",
          "a+b",
          "ünï-cödé",
          "sp ace",
          "sl/ash",
          "q?x",
          "h#sh",
          "x=1&y",
          "/",
          "ü/x",
          "a%2Fb",
          "..",
          "b\\s");

  /**
   * The keys a path can carry, every one but a dot segment and a backslash: those are asked with
   * the key in the query ({@link #queryPath}).
   */
  static final List<String> PATH_KEYS =
      KEYS.stream().filter(key -> !key.equals("..") && key.indexOf('\\') < 0).toList();

  private final JsonMapper mapper = JsonMapper.builder().build();

  private final EmbeddedKafkaKraftBroker broker;

  private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

  HostileCluster(Path stateDirs) {
    this.broker = new EmbeddedKafkaKraftBroker(1, PARTITIONS, TOPIC);
    this.broker.afterPropertiesSet();
    for (int n = 1; n <= 2; n++) {
      this.instances.add(start(stateDirs, n));
    }
    // The items are months old, so the broker soon deletes them from the windowed view's changelog
    // (its retention follows the store's): a partition that moved after its items were counted
    // would be restored without them.
    ActivePartitions.awaitSharedOut(
        this.instances.stream()
            .map(instance -> instance.getBean(StreamsBuilderFactoryBean.class).getKafkaStreams())
            .toList(),
        TOPIC,
        PARTITIONS);
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.broker),
            new StringSerializer(),
            new StringSerializer())) {
      for (int i = 0; i < KEYS.size(); i++) {
        for (int copy = 0; copy <= i; copy++) {
          Item item = new Item(i + 1L, T0.plus(Duration.ofMinutes(i)));
          producer.send(
              new ProducerRecord<>(TOPIC, KEYS.get(i), this.mapper.writeValueAsString(item)));
        }
      }
    }
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(300))
        .ignoreExceptionsInstanceOf(UncheckedIOException.class)
        .untilAsserted(
            () -> {
              for (int port : ports()) {
                HttpProbe http = HttpProbe.localhost(port);
                for (int i = 0; i < KEYS.size(); i++) {
                  HttpProbe.Answer answer = http.get(queryPath(PER_ITEM, KEYS.get(i)));
                  assertThat(answer.status()).isEqualTo(200);
                  assertThat(answer.body()).contains("\"value\":" + (i + 1));
                  HttpProbe.Answer byQuantity =
                      http.get(keyPath(PER_QUANTITY, Long.toString(i + 1)));
                  assertThat(byQuantity.status()).isEqualTo(200);
                  assertThat(byQuantity.body()).contains("\"value\":" + (i + 1));
                }
                HttpProbe.Answer windows =
                    http.get("/views/" + PER_MINUTE + "/windows?from=1970-01-01T00:00:00Z");
                assertThat(windows.status()).as(windows.body()).isEqualTo(200);
                assertThat(this.mapper.readTree(windows.body()).path("items")).hasSize(KEYS.size());
              }
            });
  }

  /** The expected count of {@code key} in the table of String keys, or 0 when it has none. */
  static long countOf(String key) {
    int index = KEYS.indexOf(key);
    return index + 1L;
  }

  /** The path of {@code key}'s lookup in {@code view}, the key in the path. */
  static String keyPath(String view, String key) {
    return "/views/" + view + "/keys/" + HttpProbe.encode(key);
  }

  /**
   * The path of {@code key}'s lookup in {@code view}, the key in the query ({@code
   * /views/<view>/key<below>?key=}), for any key.
   */
  static String queryPath(String view, String below, String key) {
    return "/views/" + view + "/key" + below + "?key=" + HttpProbe.encode(key);
  }

  /** The path of {@code key}'s value in {@code view}, the key in the query. */
  static String queryPath(String view, String key) {
    return queryPath(view, "", key);
  }

  List<Integer> ports() {
    return this.instances.stream()
        .map(context -> ((WebServerApplicationContext) context).getWebServer().getPort())
        .toList();
  }

  /** The signer of requests between instances of instance {@code n}, from 0. */
  PeerRequests peerRequests(int n) {
    return this.instances.get(n).getBean(PeerRequests.class);
  }

  /** The keys that instance {@code n}, from 0, derives from the secret the instances agreed on. */
  PeerTrust peerTrust(int n) {
    return this.instances.get(n).getBean(PeerTrust.class);
  }

  String brokers() {
    return this.broker.getBrokersAsString();
  }

  private ConfigurableApplicationContext start(Path stateDirs, int n) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("spring.main.banner-mode", "off");
    settings.put("server.port", "0");
    settings.put("spring.kafka.bootstrap-servers", this.broker.getBrokersAsString());
    settings.put("spring.kafka.streams.application-id", "hostile-it");
    settings.put("spring.kafka.streams.state-dir", stateDirs.resolve("instance-" + n).toString());
    settings.put("spring.kafka.streams.properties.commit.interval.ms", "100");
    settings.put("spring.kafka.admin.auto-create", "true");
    settings.put("matview.advertised-host", "localhost");
    settings.put("matview.forwarding.timeout", "3s");
    settings.put("matview.rocksdb.total-memory", "16MB");
    return new SpringApplicationBuilder(HostileApp.class)
        .run(
            settings.entrySet().stream()
                .map(setting -> "--" + setting.getKey() + "=" + setting.getValue())
                .toArray(String[]::new));
  }

  @Override
  public void close() {
    this.instances.forEach(ConfigurableApplicationContext::close);
    this.broker.destroy();
  }

  record Item(long quantity, Instant at) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class HostileApp {

    @MaterializedView(PER_ITEM)
    ViewDefinition<String, Item, Long> perItem() {
      return Views.from(TOPIC, Item.class).count();
    }

    @MaterializedView(PER_QUANTITY)
    ViewDefinition<Long, Item, Long> perQuantity() {
      return Views.from(TOPIC, Item.class).groupBy(Long.class, Item::quantity).count();
    }

    @MaterializedView(PER_MINUTE)
    ViewDefinition<String, Item, Long> perMinute() {
      return Views.from(TOPIC, Item.class)
          .eventTime(Item::at)
          .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)).withRetention(Duration.ofHours(2)))
          .count();
    }
  }
}
