package dev.matview.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.query.routing.ReplicaDirectory;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.ViewReplicas;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;

/**
 * On a real broker, the replica directory places every key in the partition, and on the active and
 * standby instances, that Kafka Streams' own {@code queryMetadataForKey} names, for a view keyed by
 * the record key and for one re-keyed through a repartition topic; and while a second instance
 * joins and the instances rebalance, lookups on the first keep routing by the last complete
 * snapshot instead of saying that the owner is not known.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicaDirectoryIntegrationTests {

  private static final String TOPIC = "page-visits";

  private static final String PER_PAGE = "visits-per-page";

  private static final String PER_USER = "visits-per-user";

  private static final int PARTITIONS = 6;

  private static final int PAGES = 300;

  private static final int USERS = 97;

  private static final String UNKNOWN_OWNER = "not known while the instances rebalance";

  @TempDir static Path stateDirs;

  private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

  private EmbeddedKafkaKraftBroker broker;

  @BeforeAll
  void startOneInstanceAndPublishVisits() {
    this.broker = new EmbeddedKafkaKraftBroker(1, PARTITIONS, TOPIC);
    this.broker.afterPropertiesSet();
    this.instances.add(start(1));
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.broker),
            new StringSerializer(),
            new StringSerializer())) {
      for (int i = 0; i < PAGES * 2; i++) {
        producer.send(
            new ProducerRecord<>(
                TOPIC, "page-" + (i % PAGES), "{\"user\":\"user-" + (i % USERS) + "\"}"));
      }
    }
    ConfigurableApplicationContext first = this.instances.get(0);
    await("the first instance routes both views")
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () ->
                directory(first).replicas(PER_PAGE) != null
                    && directory(first).replicas(PER_USER) != null
                    && HttpProbe.localhost(port(first))
                            .get("/views/" + PER_PAGE + "/keys/page-0")
                            .json()
                            .path("value")
                            .asLong()
                        == 2);
  }

  @AfterAll
  void stopEverything() {
    Collections.reverse(this.instances);
    this.instances.forEach(ConfigurableApplicationContext::close);
    if (this.broker != null) {
      this.broker.destroy();
    }
  }

  @Test
  @Order(1)
  void placesEveryKeyWhereKafkaStreamsPlacesItForBothKindsOfViews() {
    ConfigurableApplicationContext first = this.instances.get(0);
    assertThat(directory(first).replicas(PER_PAGE).partitions()).isEqualTo(PARTITIONS);
    assertThat(directory(first).replicas(PER_USER).inputTopic())
        .isEqualTo("directory-it-" + PER_USER + "-repartition");
    assertRoutedAsKafkaStreamsRoutes(first);
  }

  @Test
  @Order(2)
  void keepsRoutingByTheLastCompleteSnapshotWhileASecondInstanceJoins() throws Exception {
    ConfigurableApplicationContext first = this.instances.get(0);
    Routing routing = first.getBean(Routing.class);
    KafkaStreams streams = streams(first);
    ResolvedView<String, ?, ?> perPage = view(first, PER_PAGE);
    ResolvedView<String, ?, ?> perUser = view(first, PER_USER);
    List<ResolvedView<String, ?, ?>> both = List.of(perPage, perUser);
    HttpProbe http = HttpProbe.localhost(port(first));
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong lookups = new AtomicLong();
    AtomicLong whileRebalancing = new AtomicLong();
    AtomicLong unknownToKafkaStreams = new AtomicLong();
    Map<String, Long> httpOutcomes = Collections.synchronizedMap(new TreeMap<>());
    List<String> refusals = Collections.synchronizedList(new ArrayList<>());
    Thread looker =
        new Thread(
            () -> {
              int pass = 0;
              while (!stop.get()) {
                for (int n = 0; n < 50; n++) {
                  KafkaStreams.State state = streams.state();
                  for (ResolvedView<String, ?, ?> view : both) {
                    String key = (view == perPage ? "page-" : "user-") + n;
                    try {
                      routing.replicasOfKey(view, key);
                      lookups.incrementAndGet();
                      if (state == KafkaStreams.State.REBALANCING) {
                        whileRebalancing.incrementAndGet();
                      }
                    } catch (ViewUnavailableException ex) {
                      refusals.add(state + " " + view.name() + " " + key + ": " + ex.getMessage());
                    }
                    if (unknown(
                        streams.queryMetadataForKey(
                            view.storeName(), key, new StringSerializer()))) {
                      unknownToKafkaStreams.incrementAndGet();
                    }
                  }
                }
                try {
                  HttpProbe.Answer answer =
                      http.get("/views/" + PER_PAGE + "/keys/page-" + (pass++ % PAGES));
                  String outcome =
                      answer.status()
                          + (answer.body().contains(UNKNOWN_OWNER)
                              ? " owner not known (on this or the joining instance)"
                              : "");
                  httpOutcomes.merge(outcome, 1L, Long::sum);
                } catch (UncheckedIOException ex) {
                  httpOutcomes.merge("no answer", 1L, Long::sum);
                }
              }
            },
            "directory-lookups");
    looker.start();
    try {
      this.instances.add(start(2));
      ConfigurableApplicationContext second = this.instances.get(1);
      HostInfo secondHost = new HostInfo("localhost", port(second));
      await("both instances run and the first routes partitions to the second")
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () ->
                  streams(first).state() == KafkaStreams.State.RUNNING
                      && streams(second).state() == KafkaStreams.State.RUNNING
                      && ownedBy(directory(first).replicas(PER_PAGE), secondHost)
                      && ownedBy(directory(first).replicas(PER_USER), secondHost));
    } finally {
      stop.set(true);
      looker.join(Duration.ofSeconds(30).toMillis());
    }
    System.out.printf(
        "Directory lookups on the first instance while the second joined: %d routed, %d of them"
            + " while REBALANCING, %d refused; Kafka Streams' queryMetadataForKey named no owner"
            + " %d times in the same loop; HTTP lookups of the first instance: %s%n",
        lookups.get(),
        whileRebalancing.get(),
        refusals.size(),
        unknownToKafkaStreams.get(),
        httpOutcomes);
    RebalanceLookups inListener = first.getBean(RebalanceLookups.class);
    System.out.printf(
        "Lookups from the first instance's own state listener while REBALANCING: %d routed, %s%n",
        inListener.routed.get(), inListener.refusals);
    assertThat(refusals).isEmpty();
    assertThat(inListener.refusals).isEmpty();
    assertThat(inListener.routed.get())
        .as("lookups made while the first instance was REBALANCING")
        .isPositive();
    for (ConfigurableApplicationContext instance : this.instances) {
      assertRoutedAsKafkaStreamsRoutes(instance);
    }
  }

  /**
   * Compares the routing of many keys, present or not, with {@code queryMetadataForKey}: partition,
   * active host and standby hosts; retried while a follow-up rebalance may still move partitions.
   */
  private void assertRoutedAsKafkaStreamsRoutes(ConfigurableApplicationContext instance) {
    Routing routing = instance.getBean(Routing.class);
    KafkaStreams streams = streams(instance);
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              for (String name : List.of(PER_PAGE, PER_USER)) {
                ResolvedView<String, ?, ?> view = view(instance, name);
                String prefix = name.equals(PER_PAGE) ? "page-" : "user-";
                for (int n = 0; n < 1500; n++) {
                  String key = (n % 3 == 0) ? "absent-" + n : prefix + n;
                  KeyQueryMetadata kafka =
                      streams.queryMetadataForKey(name, key, new StringSerializer());
                  KeyReplicas routed = routing.replicasOfKey(view, key);
                  String what = name + " " + key;
                  assertThat(routed.partition()).as(what).isEqualTo(kafka.partition());
                  assertThat(routed.active().host()).as(what).isEqualTo(kafka.activeHost());
                  assertThat(
                          routed.standbys().stream()
                              .map(PartitionOwner::host)
                              .collect(Collectors.toSet()))
                      .as(what)
                      .isEqualTo(kafka.standbyHosts());
                }
              }
            });
  }

  private static boolean unknown(KeyQueryMetadata metadata) {
    return metadata == null
        || KeyQueryMetadata.NOT_AVAILABLE.equals(metadata)
        || metadata.activeHost() == null
        || metadata.activeHost().port() < 0;
  }

  private static boolean ownedBy(ViewReplicas replicas, HostInfo host) {
    return replicas != null
        && replicas.owners().stream().anyMatch((owner) -> Objects.equals(owner.host(), host));
  }

  private ConfigurableApplicationContext start(int n) {
    return ClusterInstance.start(
            DirectoryApp.class,
            this.broker.getBrokersAsString(),
            "directory-it",
            stateDirs.resolve("instance-" + n),
            "--matview.standby-replicas=1")
        .context();
  }

  private static ReplicaDirectory directory(ConfigurableApplicationContext instance) {
    return instance.getBean(ReplicaDirectory.class);
  }

  private static KafkaStreams streams(ConfigurableApplicationContext instance) {
    return instance.getBean(StreamsBuilderFactoryBean.class).getKafkaStreams();
  }

  @SuppressWarnings("unchecked")
  private static ResolvedView<String, ?, ?> view(
      ConfigurableApplicationContext instance, String name) {
    return (ResolvedView<String, ?, ?>)
        instance.getBean(ViewRegistry.class).find(name).orElseThrow();
  }

  private static int port(ConfigurableApplicationContext instance) {
    return ((WebServerApplicationContext) instance).getWebServer().getPort();
  }

  record Visit(String user) {}

  /**
   * A user's state listener, set on the factory bean by a configurer, that routes sample keys of
   * both views each time Kafka Streams turns REBALANCING after it has run: Kafka Streams cannot
   * leave that state while its thread is in the listener, so these lookups surely happen during the
   * rebalance. That the listener is called at all shows Matview's own did not replace it.
   */
  static final class RebalanceLookups implements KafkaStreams.StateListener {

    final AtomicLong routed = new AtomicLong();

    final List<String> refusals = Collections.synchronizedList(new ArrayList<>());

    private final ObjectProvider<Routing> routing;

    private final ObjectProvider<ViewRegistry> registry;

    private volatile boolean ran;

    RebalanceLookups(ObjectProvider<Routing> routing, ObjectProvider<ViewRegistry> registry) {
      this.routing = routing;
      this.registry = registry;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
      if (newState == KafkaStreams.State.RUNNING) {
        this.ran = true;
      }
      if (newState != KafkaStreams.State.REBALANCING || !this.ran) {
        return;
      }
      for (String name : List.of(PER_PAGE, PER_USER)) {
        ResolvedView<String, ?, ?> view =
            (ResolvedView<String, ?, ?>) this.registry.getObject().find(name).orElseThrow();
        String prefix = name.equals(PER_PAGE) ? "page-" : "user-";
        for (int n = 0; n < 200; n++) {
          try {
            this.routing.getObject().replicasOfKey(view, prefix + n);
            this.routed.incrementAndGet();
          } catch (ViewUnavailableException ex) {
            this.refusals.add(name + " " + prefix + n + ": " + ex.getMessage());
          }
        }
      }
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class DirectoryApp {

    @Bean
    RebalanceLookups rebalanceLookups(
        ObjectProvider<Routing> routing, ObjectProvider<ViewRegistry> registry) {
      return new RebalanceLookups(routing, registry);
    }

    @Bean
    StreamsBuilderFactoryBeanConfigurer userStateListenerConfigurer(RebalanceLookups lookups) {
      return (factoryBean) -> factoryBean.setStateListener(lookups);
    }

    @MaterializedView(PER_PAGE)
    ViewDefinition<String, Visit, Long> visitsPerPage() {
      return Views.from(TOPIC, Visit.class).count();
    }

    @MaterializedView(PER_USER)
    ViewDefinition<String, Visit, Long> visitsPerUser() {
      return Views.from(TOPIC, Visit.class).groupBy(String.class, Visit::user).count();
    }
  }
}
