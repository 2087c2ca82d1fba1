package dev.matview.query.routing;

import static dev.matview.query.routing.ViewReplicasTests.A;
import static dev.matview.query.routing.ViewReplicasTests.B;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Placement;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.Views;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KafkaStreams.State;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.internals.StreamsMetadataImpl;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The directory builds a snapshot per view when Kafka Streams changes state, keeps the last
 * complete one while the instances rebalance, and rebuilds on lookups only now and then; routing
 * reads it without asking Kafka Streams.
 */
class ReplicaDirectoryTests {

  private static final Duration REFRESH = Duration.ofMillis(200);

  private static final String REPARTITION = "app-per-shop-repartition";

  private final ViewRegistry registry =
      ViewRegistry.of(
          Map.of(
              "per-shop",
              Views.from("sales", Sale.class).groupBy(String.class, Sale::shop).count(),
              "per-sale",
              Views.from("sales", Sale.class).count()),
          new ViewSerdes(JsonMapper.builder().build()),
          "app");

  private final AtomicLong clock = new AtomicLong(-5_000_000_000L);

  private final FakeStreams streams = new FakeStreams();

  private final ReplicaDirectory directory =
      new ReplicaDirectory(
          this.registry.all(), "app", REFRESH, InstanceMemory.none(), this.clock::get);

  private final LocalInstance self = new LocalInstance();

  private final StreamsRouting routing = new StreamsRouting(this.directory, this.self);

  @Test
  void knowsNothingBeforeKafkaStreamsStarts() {
    assertThat(this.directory.state()).isNull();
    assertThat(this.directory.replicas("per-shop")).isNull();
    assertThatExceptionOfType(ViewUnavailableException.class)
        .isThrownBy(() -> this.routing.replicasOfKey(view(), "shop-1"))
        .withMessage(
            "Kafka Streams is not started; view 'per-shop' cannot be queried until it is running");
  }

  @Test
  void readsEachViewsPartitionsFromItsInputTopic() {
    this.streams.set(
        State.RUNNING,
        List.of(
            owning(A, REPARTITION, 0, 1),
            owning(B, REPARTITION, 2),
            owning(B, "sales", 0, 1, 2, 3, 4)));
    this.directory.attach(this.streams);
    assertThat(this.directory.replicas("per-shop").owners())
        .containsExactly(
            new PartitionOwner(0, A), new PartitionOwner(1, A), new PartitionOwner(2, B));
    assertThat(this.directory.replicas("per-sale").partitions()).isEqualTo(5);
  }

  @Test
  void routesEveryLookupFromOneSnapshotWithoutAskingKafkaStreamsAgain() {
    this.streams.set(
        State.RUNNING, List.of(owning(A, REPARTITION, 0, 1), owning(B, REPARTITION, 2)));
    this.directory.attach(this.streams);
    ViewReplicas replicas = this.directory.replicas("per-shop");
    StringSerializer serializer = new StringSerializer();
    for (int n = 0; n < 1000; n++) {
      String key = "shop-" + n;
      int partition = replicas.partitionOf(serializer.serialize(REPARTITION, key));
      KeyReplicas routed = this.routing.replicasOfKey(view(), key);
      assertThat(routed.partition()).isEqualTo(partition);
      assertThat(routed).isSameAs(replicas.replicas(partition));
      this.clock.addAndGet(REFRESH.toNanos());
    }
    assertThat(this.routing.owners(view())).hasSize(3);
    assertThat(this.streams.metadataReads).hasValue(1);
  }

  @Test
  void keepsTheLastCompleteSnapshotWhileTheInstancesRebalance() {
    this.streams.set(State.RUNNING, List.of(owning(A, REPARTITION, 0, 1, 2)));
    this.directory.attach(this.streams);
    this.streams.set(State.REBALANCING, List.of(owning(A, REPARTITION, 0, 2)));
    this.directory.onChange(State.REBALANCING, State.RUNNING);
    assertThat(this.streams.metadataReads).hasValue(2);
    assertThat(this.directory.replicas("per-shop").owners())
        .containsExactly(
            new PartitionOwner(0, A), new PartitionOwner(1, A), new PartitionOwner(2, A));
    assertThat(this.routing.replicasOfKey(view(), "shop-1").active().host()).isEqualTo(A);
  }

  @Test
  void takesANewCompleteSnapshotWhileTheInstancesRebalanceAtTheNextRefresh() {
    this.streams.set(State.RUNNING, List.of(owning(A, REPARTITION, 0, 1, 2)));
    this.directory.attach(this.streams);
    this.streams.set(State.REBALANCING, List.of(owning(A, REPARTITION, 0, 2)));
    this.directory.onChange(State.REBALANCING, State.RUNNING);
    this.streams.set(
        State.REBALANCING, List.of(owning(A, REPARTITION, 0, 2), owning(B, REPARTITION, 1)));
    assertThat(this.directory.replicas("per-shop").owners().get(1).host()).isEqualTo(A);
    this.clock.addAndGet(REFRESH.toNanos());
    assertThat(this.directory.replicas("per-shop").owners().get(1).host()).isEqualTo(B);
  }

  @Test
  void takesTheNewSnapshotOnceRunningEvenIfItIsIncomplete() {
    this.streams.set(State.RUNNING, List.of(owning(A, REPARTITION, 0, 1, 2)));
    this.directory.attach(this.streams);
    this.streams.set(State.RUNNING, List.of(owning(A, REPARTITION, 0, 2)));
    this.directory.onChange(State.RUNNING, State.REBALANCING);
    assertThat(this.directory.replicas("per-shop")).isNull();
    assertThatExceptionOfType(ViewUnavailableException.class)
        .isThrownBy(() -> this.routing.replicasOfKey(view(), "shop-1"))
        .withMessage(
            "The owner of this key's partition is not known while the instances rebalance");
    assertThatExceptionOfType(ViewUnavailableException.class)
        .isThrownBy(() -> this.routing.owners(view()))
        .withMessageContaining("Not every partition of view 'per-shop' has a known owner");
  }

  @Test
  void rebuildsOnLookupsAtMostOncePerIntervalUntilASnapshotIsComplete() {
    this.streams.set(State.REBALANCING, List.of());
    this.directory.attach(this.streams);
    for (int n = 0; n < 100; n++) {
      assertThat(this.directory.replicas("per-shop")).isNull();
    }
    assertThat(this.streams.metadataReads).hasValue(1);
    this.streams.set(State.REBALANCING, List.of(owning(A, REPARTITION, 0, 1, 2)));
    this.clock.addAndGet(REFRESH.toNanos() - 1);
    assertThat(this.directory.replicas("per-shop")).isNull();
    this.clock.addAndGet(1);
    assertThat(this.directory.replicas("per-shop")).isNotNull();
    assertThat(this.streams.metadataReads).hasValue(2);
  }

  @Test
  void rebuildsWhenKafkaStreamsChangedStateWithoutTellingTheDirectory() {
    this.streams.set(State.REBALANCING, List.of(owning(A, REPARTITION, 0, 1, 2)));
    this.directory.attach(this.streams);
    this.streams.set(State.RUNNING, List.of(owning(B, REPARTITION, 0, 1, 2)));
    this.clock.addAndGet(REFRESH.toNanos());
    assertThat(this.directory.replicas("per-shop").owners().get(0).host()).isEqualTo(B);
    this.clock.addAndGet(REFRESH.toNanos());
    this.directory.replicas("per-shop");
    assertThat(this.streams.metadataReads).hasValue(2);
  }

  @Test
  void saysKafkaStreamsIsNotRunningOnceItStops() {
    this.streams.set(State.RUNNING, List.of(owning(A, REPARTITION, 0, 1, 2)));
    this.directory.attach(this.streams);
    this.streams.set(State.PENDING_SHUTDOWN, List.of());
    this.directory.onChange(State.PENDING_SHUTDOWN, State.RUNNING);
    assertThatExceptionOfType(ViewUnavailableException.class)
        .isThrownBy(() -> this.routing.replicasOfKey(view(), "shop-1"))
        .withMessageStartingWith("Kafka Streams is PENDING_SHUTDOWN");
  }

  @Test
  void namesThePreviousOwnerOfAMovedPartitionWhileTheInstancesRebalance() {
    this.streams.set(State.RUNNING, List.of(owning(A, REPARTITION, 0, 1, 2)));
    this.directory.attach(this.streams);
    this.streams.set(
        State.REBALANCING, List.of(owning(A, REPARTITION, 0, 2), owning(B, REPARTITION, 1)));
    this.directory.onChange(State.REBALANCING, State.RUNNING);
    ViewReplicas rebalancing = this.directory.replicas("per-shop");
    assertThat(rebalancing.replicas(1).active().host()).isEqualTo(B);
    assertThat(rebalancing.replicas(1).previousActive()).isEqualTo(new PartitionOwner(1, A));
    assertThat(rebalancing.replicas(0).previousActive()).as("did not move").isNull();
    this.streams.set(
        State.RUNNING, List.of(owning(A, REPARTITION, 0, 2), owning(B, REPARTITION, 1)));
    this.directory.onChange(State.RUNNING, State.REBALANCING);
    assertThat(this.directory.replicas("per-shop").replicas(1).previousActive())
        .as("running again")
        .isNull();
  }

  @Test
  void namesEveryInstanceOfTheLastSnapshot() {
    this.streams.set(
        State.RUNNING, List.of(owning(A, REPARTITION, 0, 1, 2), owning(B, "sales", 0)));
    this.directory.attach(this.streams);
    assertThat(this.directory.names(A)).isTrue();
    assertThat(this.directory.names(B)).isTrue();
    this.streams.set(State.REBALANCING, List.of(owning(A, REPARTITION, 0, 1, 2)));
    this.directory.onChange(State.REBALANCING, State.RUNNING);
    assertThat(this.directory.names(B)).isFalse();
  }

  @Test
  void refusesAKeyItsViewsSerdeCannotSerializeSayingSo() {
    ViewSerdes serdes = new ViewSerdes(JsonMapper.builder().build());
    ViewRegistry byShop =
        ViewRegistry.of(
            Map.of(
                "per-shop", Views.from("sales", Sale.class).groupBy(Shop.class, Shop::of).count()),
            serdes,
            "app");
    ReplicaDirectory shops =
        new ReplicaDirectory(byShop.all(), "app", REFRESH, InstanceMemory.none(), this.clock::get);
    this.streams.set(State.RUNNING, List.of(owning(A, REPARTITION, 0, 1, 2)));
    shops.attach(this.streams);
    @SuppressWarnings("unchecked")
    ResolvedView<Shop, ?, ?> view =
        (ResolvedView<Shop, ?, ?>) byShop.find("per-shop").orElseThrow();
    Placement placement =
        new StreamsRouting(shops, this.self).placeKey(view, new Shop("unwritable"));
    assertThat(placement).isInstanceOf(Refusal.class);
    Refusal refusal = (Refusal) placement;
    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.FAILED);
    assertThat(refusal.detail())
        .contains("cannot be serialized with the key serde of view 'per-shop'");
  }

  @Test
  void saysWhetherAnOwnerIsThisInstance() {
    this.self.setHostInfo(new HostInfo("a", 8080));
    assertThat(this.routing.isLocal(new PartitionOwner(0, A))).isTrue();
    assertThat(this.routing.isLocal(new PartitionOwner(0, B))).isFalse();
  }

  @SuppressWarnings("unchecked")
  private ResolvedView<String, ?, ?> view() {
    return (ResolvedView<String, ?, ?>) this.registry.find("per-shop").orElseThrow();
  }

  private static StreamsMetadata owning(HostInfo host, String topic, int... partitions) {
    Set<TopicPartition> owned = new HashSet<>();
    for (int partition : partitions) {
      owned.add(new TopicPartition(topic, partition));
    }
    return new StreamsMetadataImpl(host, Set.of("per-shop"), owned, Set.of(), Set.of());
  }

  /** Kafka Streams as the directory sees it: a state and the metadata of every instance. */
  static final class FakeStreams implements DirectorySource {

    final AtomicLong metadataReads = new AtomicLong();

    private volatile State state = State.CREATED;

    private volatile Collection<StreamsMetadata> metadata = List.of();

    void set(State state, Collection<StreamsMetadata> metadata) {
      this.state = state;
      this.metadata = metadata;
    }

    @Override
    public KafkaStreams.State state() {
      return this.state;
    }

    @Override
    public Collection<StreamsMetadata> metadata() {
      this.metadataReads.incrementAndGet();
      return this.metadata;
    }
  }

  record Sale(String shop) {}

  /** A key that reads from JSON but cannot be written back: its accessor fails. */
  record Shop(String name) {

    static Shop of(Sale sale) {
      return new Shop(sale.shop());
    }

    @Override
    public String name() {
      throw new IllegalStateException("cannot write " + this.name);
    }
  }
}
