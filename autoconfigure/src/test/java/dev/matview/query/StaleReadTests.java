package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.peer.TestPeers;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Replica;
import dev.matview.query.answer.Routed;
import dev.matview.query.local.LocalReplicas;
import dev.matview.query.local.LocalStores;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.StaleReads;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.Views;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * When the active replica cannot answer, a standby may, if stale reads are allowed and its lag is
 * within the bound; the active is always asked first, and standbys are asked to check their lag.
 */
public class StaleReadTests {

  private static final String STANDBY_ANSWER = "{\"key\":\"k-1\",\"value\":41}";

  private final StubInstance standby =
      new StubInstance()
          .answering(
              200, Map.of("Matview-Replica", "standby", "Matview-Offset-Lag", "3"), STANDBY_ANSWER);

  private final StubInstance active = new StubInstance();

  @AfterEach
  void stopStubs() {
    this.standby.close();
    this.active.close();
  }

  @Test
  void asksAStandbyWithTheLagBoundWhenTheActiveIsUnreachable() throws IOException {
    ViewQueryService service =
        service(unreachable(), List.of(this.standby.owner(2)), new StaleReads(true, 100), null);
    Routed<KeyAnswer> routed = service.get("counts", "k-1", CallerContext.direct()).join();
    assertThat(((Routed.Relayed<KeyAnswer>) routed).response().header("Matview-Replica"))
        .isEqualTo("standby");
    assertThat(this.standby.received())
        .singleElement()
        .satisfies(
            request -> {
              assertThat(request.get("path"))
                  .isEqualTo("/views/counts/keys/k-1?allowStale=true&maxLag=100");
              assertThat(request.get("forwarded")).isEqualTo("1");
            });
  }

  @Test
  void timesALookupAnsweredByAStandbyUnderTheStandbyRoute() throws IOException {
    List<String> recorded = new java.util.ArrayList<>();
    ViewQueryService service =
        service(
            unreachable(),
            List.of(this.standby.owner(2)),
            new StaleReads(true, 100),
            null,
            (view, route, outcome, nanos) -> recorded.add(view + "/" + route + "/" + outcome));
    service.get("counts", "k-1", CallerContext.direct()).join();
    assertThat(recorded).containsExactly("counts/standby/found");
  }

  @Test
  void answersFromTheActiveWithoutAskingStandbysWhenItCan() {
    this.active.answering(
        200, Map.of("Matview-Replica", "active"), "{\"key\":\"k-1\",\"value\":42}");
    ViewQueryService service =
        service(
            this.active.owner(2), List.of(this.standby.owner(2)), new StaleReads(true, 100), null);
    Routed<KeyAnswer> routed = service.get("counts", "k-1", CallerContext.direct()).join();
    assertThat(((Routed.Relayed<KeyAnswer>) routed).response().header("Matview-Replica"))
        .isEqualTo("active");
    assertThat(this.standby.received()).isEmpty();
  }

  @Test
  void turnsToAStandbyWhenTheActiveSaysItCannotAnswer() {
    this.active.answering(503, Map.of("Retry-After", "4"), "{\"status\":503}");
    ViewQueryService service =
        service(
            this.active.owner(2), List.of(this.standby.owner(2)), new StaleReads(true, 100), null);
    Routed<KeyAnswer> routed = service.get("counts", "k-1", CallerContext.direct()).join();
    assertThat(((Routed.Relayed<KeyAnswer>) routed).response().status()).isEqualTo(200);
    assertThat(this.active.received()).hasSize(1);
    assertThat(this.standby.received()).hasSize(1);
  }

  @Test
  void saysServiceUnavailableWithoutAskingStandbysWhenStaleReadsAreOff() throws IOException {
    ViewQueryService service =
        service(unreachable(), List.of(this.standby.owner(2)), StaleReads.disabled(), null);
    assertThat(refusal(service.get("counts", "k-1", CallerContext.direct()).join()).detail())
        .contains("cannot be reached");
    assertThat(this.standby.received()).isEmpty();
  }

  @Test
  void letsARequestAllowStaleReadsWhenTheDefaultDoesNot() throws IOException {
    ViewQueryService service =
        service(unreachable(), List.of(this.standby.owner(2)), StaleReads.disabled(), null);
    service.get("counts", "k-1", new CallerContext(false, null, true, 7L)).join();
    assertThat(this.standby.received())
        .singleElement()
        .satisfies(
            request -> assertThat(request.get("path")).endsWith("?allowStale=true&maxLag=7"));
  }

  @Test
  void refusesWhenTheLocalStandbyLagsBeyondTheBound() throws IOException {
    PartitionOwner self = new PartitionOwner(2, new HostInfo("127.0.0.1", 1));
    LocalReplicas laggingStandby =
        (store, partition) -> new LocalReplicas.State(Replica.Role.STANDBY, 50, 1000, null);
    ViewQueryService service =
        service(unreachable(), List.of(self), new StaleReads(true, 10), laggingStandby);
    Refusal refusal =
        refusal(service.get("counts", "k-1", new CallerContext(true, null, true, 10L)).join());
    assertThat(refusal.detail())
        .contains("no other replica within 10 offsets", "this instance's replica lags 50 offsets");
    assertThat(refusal.partition()).isEqualTo(2);
  }

  public static Refusal refusal(Routed<?> routed) {
    assertThat(routed).isInstanceOf(Routed.Refused.class);
    return ((Routed.Refused<?>) routed).refusal();
  }

  private ViewQueryService service(
      PartitionOwner active,
      List<PartitionOwner> standbys,
      StaleReads staleReads,
      @Nullable LocalReplicas localReplicas) {
    return service(active, standbys, staleReads, localReplicas, LookupMetrics.NONE);
  }

  private ViewQueryService service(
      PartitionOwner active,
      List<PartitionOwner> standbys,
      StaleReads staleReads,
      @Nullable LocalReplicas localReplicas,
      LookupMetrics metrics) {
    ViewSerdes serdes = new ViewSerdes(JsonMapper.builder().build());
    ViewRegistry registry =
        ViewRegistry.of(
            Map.of("counts", Views.from("events", Event.class).count()), serdes, "stale");
    LocalInstance self = new LocalInstance();
    self.setHostInfo(new HostInfo("127.0.0.1", 1));
    return new ViewQueryService(
        registry,
        new FixedReplicas(new KeyReplicas(active, standbys), self),
        new LocalStores(() -> null),
        new PeerClient("/views", Duration.ofSeconds(5), null, TestPeers.requests(), false),
        self,
        new KeyParser(serdes.mapper()),
        Clock.systemUTC(),
        staleReads,
        localReplicas != null ? localReplicas : LocalReplicas.NONE,
        metrics);
  }

  private static PartitionOwner unreachable() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return new PartitionOwner(2, new HostInfo("127.0.0.1", socket.getLocalPort()));
    }
  }

  record Event(String id) {}

  /** The same replicas for every key; an owner on this instance's address is local. */
  public record FixedReplicas(KeyReplicas replicas, LocalInstance self) implements Routing {

    @Override
    public <K> PartitionOwner ownerOfKey(ResolvedView<K, ?, ?> view, K key) {
      return this.replicas.active();
    }

    @Override
    public <K> KeyReplicas replicasOfKey(ResolvedView<K, ?, ?> view, K key) {
      return this.replicas;
    }

    @Override
    public List<PartitionOwner> owners(ResolvedView<?, ?, ?> view) {
      return List.of(this.replicas.active());
    }

    @Override
    public boolean isLocal(PartitionOwner owner) {
      return owner.host().equals(this.self.hostInfo());
    }
  }
}
