package dev.matview.benchmarks.lookups;

import dev.matview.benchmarks.Clusters;
import dev.matview.query.ViewQueryService;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.Placement;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.ReplicaDirectory;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.ViewReplicas;
import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreHandles;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Row 2's JMH benchmarks: one cached key looked up through Matview's whole in-process path
 * (routing, lag check, store, metrics) and through a raw {@code ReadOnlyKeyValueStore.get} on the
 * same store partition; the routing step of that lookup alone, beside the serialization of the key
 * that it includes; and the RocksDB read of that lookup alone, by handle in Matview's store, which
 * takes no lock, beside Kafka Streams' own RocksDB store's synchronized {@code get}, each on a copy
 * of the key's partition written alike ({@link StoreCopies}), and that read through Kafka Streams'
 * interactive queries (IQv2) on Kafka's copy, each on one thread and on two at once; and the same
 * lookup under a request's observation in the app's {@code ObservationRegistry}, Spring Boot's with
 * its meter handler and no tracer, where Matview leaves it unobserved.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class LookupPathJmh {

  /** The key both benchmarks look up. */
  static final String KEY = "customer-7";

  @SuppressWarnings("NullAway.Init")
  private ViewQueryService queryService;

  @SuppressWarnings("NullAway.Init")
  private ReadOnlyKeyValueStore<String, Object> store;

  private final CallerContext caller = CallerContext.direct();

  @SuppressWarnings("NullAway.Init")
  private CallerContext observedCaller;

  @SuppressWarnings("NullAway.Init")
  private Routing routing;

  @SuppressWarnings("NullAway.Init")
  private ResolvedView<Object, ?, ?> view;

  @SuppressWarnings("NullAway.Init")
  private String inputTopic;

  @SuppressWarnings("NullAway.Init")
  private ReplicaHandle matviewCopy;

  @SuppressWarnings("NullAway.Init")
  private byte[] keyBytes;

  @SuppressWarnings("NullAway.Init")
  private Bytes storeKey;

  @SuppressWarnings("NullAway.Init")
  private KeyValueStore<Bytes, byte[]> kafkaStore;

  @SuppressWarnings("NullAway.Init")
  private Function<Bytes, byte @Nullable []> interactiveQueries;

  /** Starts the app in this JVM, once, and opens the key's store partition. */
  @Setup
  @SuppressWarnings("unchecked")
  public void setUp() {
    var app = InProcessApp.get();
    this.queryService = app.getBean(ViewQueryService.class);
    this.routing = app.getBean(Routing.class);
    this.view = (ResolvedView<Object, ?, ?>) this.queryService.view(Clusters.TABLE_VIEW);
    KafkaStreams streams = InProcessApp.streams(app);
    String storeName = this.view.storeName();
    ViewReplicas replicas = app.getBean(ReplicaDirectory.class).replicas(storeName);
    if (replicas == null) {
      throw new IllegalStateException("The replica directory holds no replicas of " + storeName);
    }
    this.inputTopic = replicas.inputTopic();
    if (!(route() instanceof KeyReplicas)) {
      throw new IllegalStateException("The routing step did not place " + KEY + ": " + route());
    }
    KeyQueryMetadata metadata =
        streams.queryMetadataForKey(storeName, KEY, Serdes.String().serializer());
    this.store =
        streams.store(
            StoreQueryParameters.fromNameAndType(
                    storeName, QueryableStoreTypes.<String, Object>keyValueStore())
                .withPartition(metadata.partition()));
    ReplicaHandle held = app.getBean(StoreHandles.class).handle(storeName, metadata.partition());
    if (held == null) {
      throw new IllegalStateException("No handle holds " + storeName + "/" + metadata.partition());
    }
    this.keyBytes = serializeKey();
    this.storeKey = Bytes.wrap(this.keyBytes);
    byte[] stored = held.get(this.keyBytes);
    if (stored == null) {
      throw new IllegalStateException("The handle read no value of " + KEY);
    }
    String applicationId = app.getBean(ViewRegistry.class).applicationId();
    StoreCopies copies = InProcessApp.storeCopies(this.view.changelogTopic(applicationId));
    this.matviewCopy = copies.matviewsHolding(this.storeKey, stored, metadata.partition());
    this.kafkaStore = copies.kafkasHolding(this.storeKey, stored);
    this.interactiveQueries = copies.interactiveQueries(metadata.partition());
    byte[] value = Arrays.copyOfRange(stored, Long.BYTES, stored.length);
    if (!Arrays.equals(interactiveQuery(), value)) {
      throw new IllegalStateException("IQv2 did not read the value of " + KEY + " the store holds");
    }
    this.observedCaller =
        CallerContext.direct()
            .withObservation(
                Observation.start("bench.request", app.getBean(ObservationRegistry.class)));
    observedMatview().join();
    if (app.getBean(MeterRegistry.class).find("matview.lookup").timer() != null) {
      throw new IllegalStateException(
          "A lookup under a request's observation made a matview.lookup timer without a tracer");
    }
    Object raw = raw();
    Routed<KeyAnswer> answer = matview().join();
    if (raw == null || !Objects.equals(raw, ((Routed.Local<KeyAnswer>) answer).answer().value())) {
      throw new IllegalStateException(
          "Matview answered " + answer + " where the store holds " + raw);
    }
  }

  /** Closes the app when this JVM is a fork of its own, so that the fork ends at once. */
  @TearDown
  public void tearDown() {
    if (Boolean.getBoolean(InProcessApp.FORKED)) {
      InProcessApp.close();
    }
  }

  /** The lookup through Matview's query service: read here, its future is complete at once. */
  @Benchmark
  public CompletableFuture<Routed<KeyAnswer>> matview() {
    return this.queryService.get(Clusters.TABLE_VIEW, KEY, this.caller);
  }

  /** The same lookup under a request's observation, which it is observed as a child of. */
  @Benchmark
  public CompletableFuture<Routed<KeyAnswer>> observedMatview() {
    return this.queryService.get(Clusters.TABLE_VIEW, KEY, this.observedCaller);
  }

  /** The raw lookup in the same store partition. */
  @Benchmark
  public Object raw() {
    return this.store.get(KEY);
  }

  /** The routing step of a local lookup: the key serialized, its partition and its replicas. */
  @Benchmark
  public Placement route() {
    return this.routing.placeKey(this.view, KEY);
  }

  /** The key serialized as the routing step serializes it, alone. */
  @Benchmark
  public byte[] serializeKey() {
    return this.view.keySerde().serializer().serialize(this.inputTopic, KEY);
  }

  /** The RocksDB read of a lookup: by handle, in Matview's store, which takes no lock. */
  @Benchmark
  public byte @Nullable [] directRead() {
    return this.matviewCopy.get(this.keyBytes);
  }

  /** The same read in Kafka Streams' own RocksDB store, whose {@code get} takes its monitor. */
  @Benchmark
  public byte @Nullable [] lockedRead() {
    return this.kafkaStore.get(this.storeKey);
  }

  /**
   * The same read through Kafka Streams' interactive queries (IQv2's {@code KeyQuery}) on its own
   * store, as an application of Kafka Streams alone makes it: through the monitor up to Kafka 4.3,
   * through the store's {@code ReadOnlyView} without it from 4.4.
   */
  @Benchmark
  public byte @Nullable [] interactiveQuery() {
    return this.interactiveQueries.apply(this.storeKey);
  }

  /** {@link #interactiveQuery()} on two threads at once. */
  @Benchmark
  @Group("interactiveQueryOnTwoThreads")
  @GroupThreads(2)
  public byte @Nullable [] interactiveQueryOnTwoThreads() {
    return interactiveQuery();
  }

  /** {@link #directRead()} on two threads at once. */
  @Benchmark
  @Group("directReadOnTwoThreads")
  @GroupThreads(2)
  public byte @Nullable [] directReadOnTwoThreads() {
    return directRead();
  }

  /** {@link #lockedRead()} on two threads at once. */
  @Benchmark
  @Group("lockedReadOnTwoThreads")
  @GroupThreads(2)
  public byte @Nullable [] lockedReadOnTwoThreads() {
    return lockedRead();
  }
}
