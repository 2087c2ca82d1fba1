package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.peer.PeerResponse;
import dev.matview.peer.TestPeers;
import dev.matview.position.ReadBound;
import dev.matview.position.ViewPosition;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Placement;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.query.local.LocalReplicas;
import dev.matview.query.local.LocalStores;
import dev.matview.query.peer.Fallbacks;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.peer.PeerMarks;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.LookupGate;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.StaleReads;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.Views;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * A lookup that this instance cannot place, because its Kafka Streams has not started or has no
 * owner for every partition yet, is relayed to another instance it knows, with stubs in place of
 * those instances: the first that answers below 500 answers it, one that cannot be reached is
 * skipped, one that waits there for a position holds no thread here, and a request that was itself
 * relayed or forwarded is never relayed again.
 */
class RelayTests {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private static final String UNKNOWN =
      "The owner of this key's partition is not known while the instances rebalance";

  private final StubInstance answering =
      new StubInstance()
          .answering(200, Map.of("Matview-Served-By", "owner:1"), "{\"key\":\"k-1\",\"value\":7}");

  private final StubInstance refusing =
      new StubInstance()
          .answering(
              503,
              Map.of("Content-Type", "application/problem+json"),
              "{\"status\":503,\"detail\":\"rebalancing there too\"}");

  @AfterEach
  void stopStubs() {
    this.answering.close();
    this.refusing.close();
  }

  @Test
  void relaysALookupItCannotPlaceToTheFirstOtherInstanceThatAnswers() throws IOException {
    HostInfo gone = closedPort();
    ViewQueryService service =
        service(List.of(gone, this.refusing.owner(0).host(), this.answering.owner(0).host()));

    Routed<KeyAnswer> routed =
        service.get("counts", "k-1", new CallerContext(false, null, true, 5L)).join();

    assertThat(routed).isInstanceOf(Routed.Relayed.class);
    PeerResponse response = ((Routed.Relayed<KeyAnswer>) routed).response();
    assertThat(response.status()).isEqualTo(200);
    assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains("\"value\":7");
    assertThat(this.refusing.received()).hasSize(1);
    assertThat(this.answering.received())
        .singleElement()
        .satisfies(
            request -> {
              assertThat(request.get("path"))
                  .isEqualTo("/views/counts/keys/k-1?allowStale=true&maxLag=5");
              assertThat(request.get("forwarded")).isEqualTo("relay");
              assertThat(StubInstance.signedBy(TestPeers.requests(), request)).isTrue();
            });
  }

  @Test
  void relaysALookupThatWaitsForAPositionWithoutAThreadWaitingForTheAnswer() throws Exception {
    StubInstance slow =
        new StubInstance()
            .answering(200, Map.of("Matview-Served-By", "owner:1"), "{\"key\":\"k-1\",\"value\":9}")
            .hanging();
    try {
      HostInfo gone = closedPort();
      ViewQueryService service =
          service(List.of(gone, this.refusing.owner(0).host(), slow.owner(0).host()));
      ReadBound bound =
          new ReadBound(
              ViewPosition.of("counts", 0, 40L), "token", List.of(), Duration.ofSeconds(2));

      CompletableFuture<Routed<KeyAnswer>> answer =
          service.get("counts", "k-1", CallerContext.direct().withBound(bound));

      await().atMost(Duration.ofSeconds(10)).until(() -> slow.received().size() == 1);
      assertThat(answer).isNotDone();
      assertThat(slow.received().get(0))
          .containsEntry("path", "/views/counts/keys/k-1?position=token")
          .containsEntry("forwarded", "relay");
      slow.release();
      Routed<KeyAnswer> routed = answer.get(10, TimeUnit.SECONDS);
      assertThat(routed).isInstanceOf(Routed.Relayed.class);
      PeerResponse response = ((Routed.Relayed<KeyAnswer>) routed).response();
      assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains("\"value\":9");
      assertThat(this.refusing.received()).hasSize(1);
    } finally {
      slow.close();
    }
  }

  @Test
  void refusesWithItsOwnReasonAndSaysSoWhenNoOtherInstanceCouldRoute() {
    ViewQueryService service = service(List.of(this.refusing.owner(0).host()));

    Refusal refusal =
        StaleReadTests.refusal(service.get("counts", "k-1", CallerContext.direct()).join());

    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.OWNER_UNKNOWN);
    assertThat(refusal.detail())
        .startsWith("The owner of this key's partition is not known")
        .endsWith("the other instance asked to route it could not either")
        .doesNotContain("127.0.0.1");
  }

  @Test
  void neverRelaysARequestThatAnotherInstanceRelayedOrForwarded() {
    ViewQueryService service = service(List.of(this.answering.owner(0).host()));

    Refusal relayed =
        StaleReadTests.refusal(
            service.get("counts", "k-1", new CallerContext(false, null, null, null, true)).join());
    Refusal forwarded =
        StaleReadTests.refusal(service.get("counts", "k-1", new CallerContext(true, null)).join());

    assertThat(relayed.reason()).isEqualTo(Refusal.Reason.OWNER_UNKNOWN);
    assertThat(forwarded.reason()).isEqualTo(Refusal.Reason.OWNER_UNKNOWN);
    assertThat(this.answering.received()).isEmpty();
  }

  @Test
  void refusesAtOnceWhenItKnowsNoOtherInstance() {
    Refusal refusal =
        StaleReadTests.refusal(
            service(List.of()).get("counts", "k-1", CallerContext.direct()).join());

    assertThat(refusal.detail()).isEqualTo(UNKNOWN);
  }

  private static HostInfo closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return new HostInfo("127.0.0.1", socket.getLocalPort());
    }
  }

  private static ViewQueryService service(List<HostInfo> others) {
    ViewSerdes serdes = new ViewSerdes(JsonMapper.builder().build());
    ViewRegistry registry =
        ViewRegistry.of(
            Map.of("counts", Views.from("events", Event.class).count()), serdes, "relaying");
    LocalInstance self = new LocalInstance();
    self.setHostInfo(new HostInfo("127.0.0.1", 1));
    LookupGate gate = new LookupGate();
    gate.open();
    LocalStores stores = new LocalStores(() -> null);
    Fallbacks fallbacks =
        new Fallbacks(
            new Unplaced(new ArrayList<>(others)),
            stores,
            new PeerClient("/views", TIMEOUT, null, TestPeers.requests(), false),
            self,
            LocalReplicas.NONE,
            StaleReads.disabled(),
            PeerMarks.lasting(Duration.ofMinutes(1)),
            gate);
    return new ViewQueryService(
        registry,
        stores,
        new KeyParser(serdes.mapper()),
        Clock.systemUTC(),
        fallbacks,
        LookupMetrics.NONE);
  }

  record Event(String id) {}

  /** Knows the other instances but no owner of any partition, as during a first rebalance. */
  private record Unplaced(List<HostInfo> others) implements Routing {

    @Override
    public <K> Placement placeKey(ResolvedView<K, ?, ?> view, K key) {
      return new Refusal(
          Refusal.Reason.OWNER_UNKNOWN, view.name(), key, null, UNKNOWN, Refusal.REBALANCE_RETRY);
    }

    @Override
    public <K> PartitionOwner ownerOfKey(ResolvedView<K, ?, ?> view, K key) {
      throw unknown(view);
    }

    @Override
    public <K> KeyReplicas replicasOfKey(ResolvedView<K, ?, ?> view, K key) {
      throw unknown(view);
    }

    @Override
    public List<PartitionOwner> owners(ResolvedView<?, ?, ?> view) {
      throw unknown(view);
    }

    @Override
    public boolean isLocal(PartitionOwner owner) {
      return false;
    }

    @Override
    public List<HostInfo> otherInstances() {
      return this.others;
    }

    private static ViewUnavailableException unknown(ResolvedView<?, ?, ?> view) {
      return new ViewUnavailableException(
          view.name(), null, null, UNKNOWN, Refusal.REBALANCE_RETRY);
    }
  }
}
