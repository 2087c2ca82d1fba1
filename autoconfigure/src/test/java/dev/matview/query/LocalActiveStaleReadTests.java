package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.peer.TestPeers;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Replica;
import dev.matview.query.answer.Routed;
import dev.matview.query.local.LocalReplicas;
import dev.matview.query.local.LocalStores;
import dev.matview.query.local.ReadIsolation;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.StaleReads;
import dev.matview.replica.StoreHandles;
import dev.matview.topology.RecordRules;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.topology.ViewTopologyBuilder;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * This instance's active replica that Kafka Streams does not run yet (being assigned, or a standby
 * a moment ago) answers a stale read within its known lag from its open store, on real RocksDB run
 * by Kafka Streams' test driver; without stale reads, or with its lag unknown, it refuses.
 */
class LocalActiveStaleReadTests {

  private static final HostInfo SELF = new HostInfo("127.0.0.1", 1);

  @TempDir Path stateDir;

  private final JsonMapper mapper = JsonMapper.builder().build();

  private final ViewSerdes serdes = new ViewSerdes(this.mapper);

  private final ViewRegistry registry =
      ViewRegistry.of(
          Map.<String, ViewDefinition<?, ?, ?>>of(
              "counts", Views.from("events", Event.class).count()),
          this.serdes,
          "stale");

  private final StoreHandles handles = new StoreHandles();

  private TopologyTestDriver driver;

  @BeforeEach
  void openTheStoreWithOneCount() {
    StreamsBuilder builder = new StreamsBuilder();
    new ViewTopologyBuilder(builder, RecordRules.STANDARD, this.handles).addAll(this.registry);
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, "stale");
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    config.put(StreamsConfig.STATE_DIR_CONFIG, this.stateDir.toString());
    this.driver = new TopologyTestDriver(builder.build(), config);
    this.driver
        .createInputTopic("events", new StringSerializer(), new StringSerializer())
        .pipeInput("k-1", this.mapper.writeValueAsString(new Event("k-1")), Instant.EPOCH);
  }

  @AfterEach
  void closeTheStore() {
    this.driver.close();
  }

  @Test
  void answersAStaleReadWithinItsKnownLagAsTheActiveReplica() {
    Routed<KeyAnswer> routed =
        service(new LocalReplicas.State(Replica.Role.STANDBY, 3, 100, null))
            .get("counts", "k-1", new CallerContext(false, null, true, 10L))
            .join();
    KeyAnswer answer = ((Routed.Local<KeyAnswer>) routed).answer();
    assertThat(answer.value()).isEqualTo(1L);
    assertThat(answer.replica().role()).isEqualTo(Replica.Role.ACTIVE);
    assertThat(answer.replica().offsetLag()).isEqualTo(3);
  }

  @Test
  void refusesWithoutStaleReadsOrBeyondTheBound() {
    LocalReplicas.State catchingUp = new LocalReplicas.State(Replica.Role.STANDBY, 3, 100, null);
    assertThat(
            StaleReadTests.refusal(
                    service(catchingUp).get("counts", "k-1", CallerContext.direct()).join())
                .detail())
        .contains("catching up", "3 of 100 offsets to go");
    assertThat(
            StaleReadTests.refusal(
                    service(catchingUp)
                        .get("counts", "k-1", new CallerContext(false, null, true, 2L))
                        .join())
                .detail())
        .contains("catching up");
  }

  @Test
  void neverAnswersStaleWhileItsLagIsUnknown() {
    Routed<KeyAnswer> routed =
        service(new LocalReplicas.State(Replica.Role.STANDBY, Long.MAX_VALUE, -1, null))
            .get("counts", "k-1", new CallerContext(false, null, true, 1_000_000L))
            .join();
    assertThat(StaleReadTests.refusal(routed).detail()).contains("not known yet");
  }

  private ViewQueryService service(LocalReplicas.State state) {
    LocalInstance self = new LocalInstance();
    self.setHostInfo(SELF);
    LocalReplicas replicas = (store, partition) -> state;
    return new ViewQueryService(
        this.registry,
        new StaleReadTests.FixedReplicas(
            new KeyReplicas(new PartitionOwner(0, SELF), List.of()), self),
        new LocalStores(
            () -> null, replicas, this.handles, this.registry, null, ReadIsolation.AT_LEAST_ONCE),
        new PeerClient("/views", Duration.ofSeconds(5), null, TestPeers.requests(), false),
        self,
        new KeyParser(this.serdes.mapper()),
        Clock.systemUTC(),
        new StaleReads(false, 0),
        replicas,
        LookupMetrics.NONE);
  }

  record Event(String id) {}
}
