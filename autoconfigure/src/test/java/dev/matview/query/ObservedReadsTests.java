package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import dev.matview.changes.ChangeEvent;
import dev.matview.changes.ChangeSink;
import dev.matview.changes.ChangeStreams;
import dev.matview.changes.UpstreamChanges;
import dev.matview.observation.MatviewObservations;
import dev.matview.peer.TestPeers;
import dev.matview.position.PositionTokens;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.local.LocalReplicas;
import dev.matview.query.local.LocalStores;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.peer.PeerMarks;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.StaleReads;
import dev.matview.query.scan.CursorCodec;
import dev.matview.query.scan.ScanStream;
import dev.matview.replica.StorePositions;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.micrometer.observation.transport.SenderContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.StringNode;

/**
 * Each read is observed under the request's observation it is given, with its view, operation and
 * outcome, and each request to another instance under the read's, carrying the trace context a
 * tracing handler writes into its headers; a read given no observation makes none.
 */
class ObservedReadsTests {

  /** What the test's stand-in for a tracing handler writes into every request it sees sent. */
  private static final String TRACEPARENT =
      "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final StubInstance owner =
      new StubInstance()
          .answering(200, Map.of("Matview-Served-By", "owner:1"), "{\"key\":\"k-1\",\"value\":42}")
          .answeringPosts(200, "{\"items\":[{\"key\":\"k-1\",\"found\":true,\"value\":42}]}");

  private final TestObservationRegistry registry = TestObservationRegistry.create();

  private final ViewSerdes serdes = new ViewSerdes(JsonMapper.builder().build());

  private final Routing routing = new RemoteOwner(this.owner.owner(3));

  private final PeerClient peers =
      new PeerClient("/views", TIMEOUT, null, TestPeers.requests(), false);

  private final ViewQueryService service = service();

  private final Observation request = Observation.start("http.server.requests", this.registry);

  private final CallerContext caller = CallerContext.direct().withObservation(this.request);

  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

  ObservedReadsTests() {
    this.registry.observationConfig().observationHandler(new TraceContextWriter());
  }

  @AfterEach
  void stop() {
    this.owner.close();
    this.peers.close();
    this.timer.shutdownNow();
  }

  @Test
  void observesAForwardedLookupUnderTheRequestAndItsExchangeUnderTheLookup() {
    this.service.get("counts", "k-1", this.caller).join();
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasObservationWithNameEqualTo(MatviewObservations.LOOKUP)
        .that()
        .hasLowCardinalityKeyValue("view", "counts")
        .hasLowCardinalityKeyValue("operation", "key")
        .hasLowCardinalityKeyValue("outcome", "forwarded")
        .hasParentObservationEqualTo(this.request)
        .hasBeenStopped();
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasObservationWithNameEqualTo(MatviewObservations.PEER_EXCHANGE)
        .that()
        .hasLowCardinalityKeyValue("view", "counts")
        .hasLowCardinalityKeyValue("operation", "key")
        .hasLowCardinalityKeyValue("method", "GET")
        .hasLowCardinalityKeyValue("status", "200")
        .hasLowCardinalityKeyValue("outcome", "answered")
        .hasHighCardinalityKeyValue("peer", "127.0.0.1:" + this.owner.owner(3).host().port())
        .hasParentObservationContextMatching(
            parent -> parent.getName().equals(MatviewObservations.LOOKUP))
        .hasBeenStopped();
    assertThat(this.owner.received())
        .singleElement()
        .satisfies(sent -> assertThat(sent.get("traceparent")).isEqualTo(TRACEPARENT));
  }

  @Test
  void observesAWindowsLookupAsWindows() {
    this.service
        .windows(
            "per-minute",
            "k-1",
            Instant.parse("2026-01-01T00:00:00Z"),
            Instant.parse("2026-01-01T01:00:00Z"),
            this.caller)
        .join();
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasObservationWithNameEqualTo(MatviewObservations.LOOKUP)
        .that()
        .hasLowCardinalityKeyValue("view", "per-minute")
        .hasLowCardinalityKeyValue("operation", "windows")
        .hasBeenStopped();
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasObservationWithNameEqualTo(MatviewObservations.PEER_EXCHANGE)
        .that()
        .hasLowCardinalityKeyValue("operation", "windows");
  }

  @Test
  void observesABatchAndTheRequestThatCarriesItsKeysToTheirOwner() {
    new ViewBatchService(
            this.service,
            this.routing,
            this.peers,
            PeerMarks.lasting(Duration.ofSeconds(2)),
            this.serdes.mapper(),
            10,
            null)
        .lookup("counts", List.of(StringNode.valueOf("k-1")), this.caller)
        .join();
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasObservationWithNameEqualTo(MatviewObservations.LOOKUP)
        .that()
        .hasLowCardinalityKeyValue("operation", "batch")
        .hasLowCardinalityKeyValue("outcome", "local")
        .hasParentObservationEqualTo(this.request)
        .hasBeenStopped();
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasObservationWithNameEqualTo(MatviewObservations.PEER_EXCHANGE)
        .that()
        .hasLowCardinalityKeyValue("operation", "batch")
        .hasLowCardinalityKeyValue("method", "POST")
        .hasBeenStopped();
  }

  @Test
  void observesAPageOfAScanAndItsSliceRequest() {
    scans().keys("counts", null, null, 10, null, this.caller).join();
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasObservationWithNameEqualTo(MatviewObservations.SCAN)
        .that()
        .hasLowCardinalityKeyValue("view", "counts")
        .hasLowCardinalityKeyValue("operation", "keys")
        .hasLowCardinalityKeyValue("mode", "page")
        .hasLowCardinalityKeyValueWithKey("outcome")
        .hasParentObservationEqualTo(this.request)
        .hasBeenStopped();
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasObservationWithNameEqualTo(MatviewObservations.PEER_EXCHANGE)
        .that()
        .hasLowCardinalityKeyValue("operation", "slice")
        .hasParentObservationContextMatching(
            parent -> parent.getName().equals(MatviewObservations.SCAN));
  }

  @Test
  void observesAStreamedScanUntilItCloses() {
    ScanStream stream = scans().streams().keys("counts", null, null, null, null, this.caller);
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasObservationWithNameEqualTo(MatviewObservations.SCAN)
        .that()
        .hasLowCardinalityKeyValue("mode", "stream")
        .hasBeenStarted()
        .isNotStopped();
    stream.close();
    stream.close();
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasObservationWithNameEqualTo(MatviewObservations.SCAN)
        .that()
        .hasLowCardinalityKeyValue("outcome", "incomplete")
        .hasBeenStopped();
  }

  @Test
  void observesARelayedChangeStreamAndItsRequestToTheOwnerUntilTheyEnd() {
    List<ChangeEvent> events = new CopyOnWriteArrayList<>();
    changeStreams().openKey("counts", "k-1", null, this.caller, new ListSink(events));
    await("the relay ends: the stub owner answers JSON, not an event stream")
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                TestObservationRegistryAssert.assertThat(this.registry)
                    .hasObservationWithNameEqualTo(MatviewObservations.CHANGE_STREAM)
                    .that()
                    .hasBeenStopped());
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasObservationWithNameEqualTo(MatviewObservations.CHANGE_STREAM)
        .that()
        .hasLowCardinalityKeyValue("view", "counts")
        .hasLowCardinalityKeyValue("operation", "key")
        .hasLowCardinalityKeyValue("outcome", "relayed")
        .hasParentObservationEqualTo(this.request);
    await("the exchange with the owner ends")
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                TestObservationRegistryAssert.assertThat(this.registry)
                    .hasObservationWithNameEqualTo(MatviewObservations.PEER_EXCHANGE)
                    .that()
                    .hasLowCardinalityKeyValue("operation", "key-changes")
                    .hasLowCardinalityKeyValueWithKey("outcome")
                    .hasParentObservationContextMatching(
                        parent -> parent.getName().equals(MatviewObservations.CHANGE_STREAM))
                    .hasBeenStopped());
    assertThat(this.owner.received().get(0).get("traceparent")).isEqualTo(TRACEPARENT);
    assertThat(events).extracting(ChangeEvent::kind).contains(ChangeEvent.Kind.RECONNECT);
  }

  @Test
  void observesALookupOfAnUnknownViewAsInvalidWithoutItsName() {
    assertThatExceptionOfType(UnknownViewException.class)
        .isThrownBy(() -> this.service.get("no-such-view", "k-1", this.caller));
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasObservationWithNameEqualTo(MatviewObservations.LOOKUP)
        .that()
        .hasLowCardinalityKeyValue("view", "unknown")
        .hasLowCardinalityKeyValue("outcome", "invalid")
        .hasError()
        .hasBeenStopped();
  }

  @Test
  void keepsTheRequestAsTheExchangesParentWhenLookupsAreNotObserved() {
    this.registry
        .observationConfig()
        .observationPredicate((name, context) -> !name.equals(MatviewObservations.LOOKUP));
    this.service.get("counts", "k-1", this.caller).join();
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasNumberOfObservationsWithNameEqualTo(MatviewObservations.LOOKUP, 0)
        .hasObservationWithNameEqualTo(MatviewObservations.PEER_EXCHANGE)
        .that()
        .hasParentObservationEqualTo(this.request);
    assertThat(this.owner.received().get(0).get("traceparent")).isEqualTo(TRACEPARENT);
  }

  @Test
  void makesNothingForACallerThatNoObservationCarries() {
    this.service.get("counts", "k-1", CallerContext.direct()).join();
    TestObservationRegistryAssert.assertThat(this.registry)
        .hasNumberOfObservationsEqualTo(1)
        .hasObservationWithNameEqualTo("http.server.requests");
    assertThat(this.owner.received().get(0).get("traceparent")).isEqualTo("null");
    assertThat(
            MatviewObservations.start(
                Observation.NOOP, MatviewObservations.LOOKUP, "counts", "key", KeyValues.empty()))
        .isSameAs(Observation.NOOP);
  }

  private ViewQueryService service() {
    LocalInstance self = new LocalInstance();
    self.setHostInfo(new HostInfo("127.0.0.1", 1));
    return new ViewQueryService(
        ViewRegistry.of(
            Map.of(
                "counts",
                Views.from("events", Event.class).count(),
                "per-minute",
                Views.from("events", Event.class)
                    .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
                    .count()),
            this.serdes,
            "observed"),
        this.routing,
        new LocalStores(() -> null),
        this.peers,
        self,
        new KeyParser(this.serdes.mapper()),
        Clock.systemUTC(),
        StaleReads.disabled(),
        LocalReplicas.NONE,
        LookupMetrics.NONE);
  }

  private ViewScanService scans() {
    return new ViewScanService(
        this.service,
        this.routing,
        new LocalStores(() -> null),
        this.peers,
        new KeyParser(this.serdes.mapper()),
        new CursorCodec(TestPeers.trust()),
        this.serdes.mapper(),
        Clock.systemUTC(),
        100,
        null);
  }

  private ChangeStreams changeStreams() {
    return new ChangeStreams(
        this.service,
        this.routing,
        new StorePositions(),
        this.serdes.mapper(),
        new PositionTokens(TestPeers.trust(), "observed"),
        new UpstreamChanges(this.peers, Duration.ofSeconds(1)),
        10,
        10,
        Duration.ofSeconds(1),
        this.timer,
        Runnable::run);
  }

  record Event(String id) {}

  /** Writes a trace context into the carrier of every request sent, as a tracing handler would. */
  private static final class TraceContextWriter implements ObservationHandler<SenderContext<?>> {

    @Override
    @SuppressWarnings("unchecked")
    public void onStart(SenderContext<?> context) {
      SenderContext<Object> sender = (SenderContext<Object>) context;
      sender.getSetter().set(sender.getCarrier(), "traceparent", TRACEPARENT);
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
      return context instanceof SenderContext<?>;
    }
  }

  /** Says that one remote instance owns every key. */
  private record RemoteOwner(PartitionOwner owner) implements Routing {

    @Override
    public <K> PartitionOwner ownerOfKey(ResolvedView<K, ?, ?> view, K key) {
      return this.owner;
    }

    @Override
    public <K> KeyReplicas replicasOfKey(ResolvedView<K, ?, ?> view, K key) {
      return new KeyReplicas(this.owner, List.of());
    }

    @Override
    public List<PartitionOwner> owners(ResolvedView<?, ?, ?> view) {
      return List.of(this.owner);
    }

    @Override
    public boolean isLocal(PartitionOwner candidate) {
      return false;
    }
  }

  /** A change stream's client that keeps every event. */
  private record ListSink(List<ChangeEvent> events) implements ChangeSink {

    @Override
    public void send(ChangeEvent event) {
      this.events.add(event);
    }

    @Override
    public void heartbeat() {}

    @Override
    public void close() {}

    @Override
    public void whenGone(Runnable onGone) {}
  }
}
