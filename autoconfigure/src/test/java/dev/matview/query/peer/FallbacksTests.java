package dev.matview.query.peer;

import static dev.matview.query.StaleReadTests.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.peer.TestPeers;
import dev.matview.position.InputRecord;
import dev.matview.position.ReadBound;
import dev.matview.query.KeyParser;
import dev.matview.query.LookupMetrics;
import dev.matview.query.StaleReadTests;
import dev.matview.query.StubInstance;
import dev.matview.query.ViewQueryService;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.local.LocalReads;
import dev.matview.query.local.LocalReplicas;
import dev.matview.query.local.LocalStores;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.LookupGate;
import dev.matview.query.routing.StaleReads;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.Views;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The order in which replicas are asked once the active one refuses, the instances marked down that
 * later lookups skip without a connection, the refusal during shutdown, and failures of a store, a
 * serde or another instance told as what failed: with stub instances.
 */
class FallbacksTests {

  private static final Duration TIMEOUT = Duration.ofMillis(300);

  private static final String PROBLEM = "application/problem+json";

  private final StubInstance active = new StubInstance();

  private final StubInstance standby =
      new StubInstance()
          .answering(200, Map.of("Matview-Replica", "standby"), "{\"key\":\"k-1\",\"value\":41}");

  private final StubInstance previous =
      new StubInstance()
          .answering(200, Map.of("Matview-Replica", "active"), "{\"key\":\"k-1\",\"value\":40}");

  private final LookupGate gate = new LookupGate();

  @AfterEach
  void stopStubs() {
    this.active.close();
    this.standby.close();
    this.previous.close();
  }

  @Test
  void skipsAnOwnerThatTimedOutAndGoesStraightToTheStandbyUntilTheDownTimeEnds() {
    this.active.hanging();
    ViewQueryService service = service(new StaleReads(true, 100), Duration.ofMinutes(1));
    assertRelayedFrom(service.get("counts", "k-1", CallerContext.direct()).join(), 41);
    long started = System.nanoTime();
    for (int n = 0; n < 5; n++) {
      assertRelayedFrom(service.get("counts", "k-1", CallerContext.direct()).join(), 41);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .as("five lookups, none of which waits out the owner's timeout")
        .isLessThan(TIMEOUT.multipliedBy(5));
    assertThat(this.active.received()).hasSize(1);
    assertThat(this.standby.received()).hasSize(6);
  }

  @Test
  void refusesAtOnceWithoutStaleReadsWhileTheOwnerIsMarkedDown() {
    this.active.hanging();
    ViewQueryService service = service(StaleReads.disabled(), Duration.ofMinutes(1));
    assertThat(refusal(service.get("counts", "k-1", CallerContext.direct()).join()).reason())
        .isEqualTo(Refusal.Reason.TIMEOUT);
    Refusal skipped = refusal(service.get("counts", "k-1", CallerContext.direct()).join());
    assertThat(skipped.reason()).isEqualTo(Refusal.Reason.UNREACHABLE);
    assertThat(skipped.detail())
        .contains("another instance", "did not answer in time a moment ago")
        .doesNotContain("127.0.0.1");
    assertThat(this.active.received()).hasSize(1);
  }

  @Test
  void asksTheOwnerAgainOnceTheDownTimeHasPassed() {
    this.active.hanging();
    ViewQueryService service = service(StaleReads.disabled(), Duration.ZERO);
    service.get("counts", "k-1", CallerContext.direct()).join();
    service.get("counts", "k-1", CallerContext.direct()).join();
    assertThat(this.active.received()).hasSize(2);
  }

  @Test
  void asksTheStandbysThenThePreviousOwnerEachWithTheLagBound() {
    this.active.answering(503, Map.of("Content-Type", PROBLEM, "Retry-After", "3"), "{}");
    this.standby.answering(503, Map.of("Content-Type", PROBLEM), "{}");
    ViewQueryService service = service(new StaleReads(true, 100), Duration.ofMinutes(1));
    assertRelayedFrom(service.get("counts", "k-1", CallerContext.direct()).join(), 40);
    assertThat(this.active.received().get(0).get("path"))
        .isEqualTo("/views/counts/keys/k-1?allowStale=true&maxLag=100");
    assertThat(this.standby.received()).hasSize(1);
    assertThat(this.previous.received())
        .singleElement()
        .satisfies(
            request ->
                assertThat(request.get("path"))
                    .isEqualTo("/views/counts/keys/k-1?allowStale=true&maxLag=100"));
  }

  @Test
  void asksEachReplicaInTurnWithoutAThreadWaitingWhenTheLookupCarriesABound() throws Exception {
    this.active.answering(503, Map.of("Content-Type", PROBLEM, "Retry-After", "3"), "{}");
    this.standby.answering(503, Map.of("Content-Type", PROBLEM), "{}");
    ViewQueryService service = service(new StaleReads(true, 100), Duration.ofMinutes(1));
    CallerContext bounded =
        CallerContext.direct()
            .withBound(
                new ReadBound(
                    null, null, List.of(InputRecord.parse("events:0:5")), Duration.ofSeconds(1)));
    Thread asking = Thread.currentThread();
    List<Thread> answeredOn = new CopyOnWriteArrayList<>();
    Routed<KeyAnswer> routed =
        service
            .get("counts", "k-1", bounded)
            .whenComplete((answer, failure) -> answeredOn.add(Thread.currentThread()))
            .get(30, TimeUnit.SECONDS);
    assertRelayedFrom(routed, 40);
    assertThat(answeredOn).singleElement().isNotSameAs(asking);
    for (StubInstance replica : List.of(this.active, this.standby, this.previous)) {
      assertThat(replica.received())
          .singleElement()
          .satisfies(
              request ->
                  assertThat(request.get("path"))
                      .isEqualTo(
                          "/views/counts/keys/k-1?allowStale=true&maxLag=100&after=events%3A0%3A5"));
    }
  }

  @Test
  void refusesWhenNoReplicaCouldAnswerSayingWhatEachSaid() {
    this.active.answering(503, Map.of("Content-Type", PROBLEM, "Retry-After", "3"), "{}");
    this.standby.answering(503, Map.of("Content-Type", PROBLEM), "{}");
    this.previous.answering(503, Map.of("Content-Type", PROBLEM), "{}");
    ViewQueryService service = service(new StaleReads(true, 100), Duration.ofMinutes(1));
    Refusal refusal = refusal(service.get("counts", "k-1", CallerContext.direct()).join());
    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.UNAVAILABLE);
    assertThat(refusal.retryAfter()).isEqualTo(Duration.ofSeconds(3));
    assertThat(refusal.detail())
        .contains("no other replica within 100 offsets could")
        .contains("another instance answered 503");
  }

  @Test
  void tellsAnErrorAnotherInstanceAnsweredWithoutAProblemDetailAsAFailure() {
    this.active.answering(500, Map.of("Content-Type", "text/html"), "<html>oops</html>");
    ViewQueryService service = service(StaleReads.disabled(), Duration.ofMinutes(1));
    Refusal refusal = refusal(service.get("counts", "k-1", CallerContext.direct()).join());
    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.FAILED);
    assertThat(refusal.detail())
        .contains("another instance, which answered 500 without a problem detail")
        .doesNotContain("127.0.0.1");
  }

  @Test
  void tellsAnInstanceThatClosedTheConnectionWithoutAnAnswerAsUnavailable() {
    this.active.closingWithoutAnswer();
    ViewQueryService service = service(StaleReads.disabled(), Duration.ofMinutes(1));
    Refusal refusal = refusal(service.get("counts", "k-1", CallerContext.direct()).join());
    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.UNAVAILABLE);
    assertThat(refusal.detail()).contains("another instance, which failed to answer");
  }

  @Test
  void refusesAtOnceWhileThisInstanceShutsDown() {
    ViewQueryService service = service(new StaleReads(true, 100), Duration.ofMinutes(1));
    this.gate.close();
    Refusal refusal = refusal(service.get("counts", "k-1", CallerContext.direct()).join());
    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.SHUTTING_DOWN);
    assertThat(refusal.detail()).contains("shutting down");
    assertThat(this.active.received()).isEmpty();
  }

  @Test
  void tellsAFailureOfTheStoreAsWhatFailed() {
    Routed<Object> routed = readLocally(new ProcessorStateException("rocksdb: corruption"));
    Refusal refusal = refusal(routed);
    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.FAILED);
    assertThat(refusal.partition()).isEqualTo(2);
    assertThat(refusal.detail())
        .isEqualTo(
            "The store of partition 2 of view 'counts' failed to read this key"
                + " (ProcessorStateException, logged by this instance)");
  }

  @Test
  void tellsAValueTheSerdeCannotReadAsWhatFailed() {
    Refusal refusal = refusal(readLocally(new SerializationException("bad bytes")));
    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.FAILED);
    assertThat(refusal.detail())
        .isEqualTo(
            "The value of this key in partition 2 of view 'counts' cannot be read with the view's"
                + " value type Long (the serde failed; logged by this instance)");
  }

  private Routed<Object> readLocally(RuntimeException failure) {
    LocalReads reads =
        new LocalReads(new LocalStores(() -> null), new LocalInstance(), LocalReplicas.NONE);
    return reads.active(
        view(registry()),
        "k-1",
        2,
        new StaleReads(true, 100),
        ReadBound.NONE,
        (partition, replica, exact) -> {
          throw failure;
        });
  }

  private static void assertRelayedFrom(Routed<KeyAnswer> routed, int value) {
    assertThat(routed).isInstanceOf(Routed.Relayed.class);
    assertThat(new String(((Routed.Relayed<KeyAnswer>) routed).response().body()))
        .contains("\"value\":" + value);
  }

  private ViewQueryService service(StaleReads staleReads, Duration downTime) {
    ViewRegistry registry = registry();
    LocalInstance self = new LocalInstance();
    self.setHostInfo(new HostInfo("127.0.0.1", 1));
    KeyReplicas replicas =
        new KeyReplicas(
            this.active.owner(2), List.of(this.standby.owner(2)), this.previous.owner(2));
    LocalStores stores = new LocalStores(() -> null);
    Fallbacks fallbacks =
        new Fallbacks(
            new StaleReadTests.FixedReplicas(replicas, self),
            stores,
            new PeerClient("/views", TIMEOUT, null, TestPeers.requests(), false),
            self,
            LocalReplicas.NONE,
            staleReads,
            PeerMarks.lasting(downTime),
            this.gate);
    return new ViewQueryService(
        registry,
        stores,
        new KeyParser(JsonMapper.builder().build()),
        Clock.systemUTC(),
        fallbacks,
        LookupMetrics.NONE);
  }

  private static ViewRegistry registry() {
    return ViewRegistry.of(
        Map.of("counts", Views.from("events", Event.class).count()),
        new ViewSerdes(JsonMapper.builder().build()),
        "fallbacks");
  }

  @SuppressWarnings("unchecked")
  private static ResolvedView<Object, ?, ?> view(ViewRegistry registry) {
    return (ResolvedView<Object, ?, ?>) registry.find("counts").orElseThrow();
  }

  record Event(String id) {}
}
