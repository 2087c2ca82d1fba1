package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.Views;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Forwarding a lookup to the owning instance, with a stub owner put in place through the routing
 * seam: answers are passed on, a slow owner gives 504 within the timeout and an unreachable one
 * 503.
 */
class ForwardingTests {

  private static final Duration TIMEOUT = Duration.ofMillis(500);

  private final StubInstance owner =
      new StubInstance()
          .answering(200, Map.of("Matview-Served-By", "owner:1"), "{\"key\":\"k-1\",\"value\":42}");

  private final ViewQueryService service = service(this.owner.owner(3).host().port());

  @AfterEach
  void stopStubOwner() {
    this.owner.close();
  }

  @Test
  void passesTheOwnersAnswerOnWithTheForwardedMarkerAndTheCallersCredentials() {
    Routed<KeyAnswer> routed =
        this.service.get("counts", "k-1", new CallerContext(false, "Bearer secret"));
    assertThat(routed).isInstanceOf(Routed.Relayed.class);
    PeerResponse response = ((Routed.Relayed<KeyAnswer>) routed).response();
    assertThat(response.status()).isEqualTo(200);
    assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains("\"value\":42");
    assertThat(response.header("Matview-Served-By")).isEqualTo("owner:1");
    assertThat(this.owner.received())
        .singleElement()
        .satisfies(
            request -> {
              assertThat(request.get("path")).isEqualTo("/views/counts/keys/k-1");
              assertThat(request.get("forwarded")).isEqualTo("1");
              assertThat(request.get("authorization")).isEqualTo("Bearer secret");
            });
  }

  @Test
  void answersGatewayTimeoutWithinTheTimeoutWhenTheOwnerIsSlow() {
    this.owner.hanging();
    long started = System.nanoTime();
    assertThatExceptionOfType(ViewTimeoutException.class)
        .isThrownBy(() -> this.service.get("counts", "k-1", CallerContext.direct()))
        .satisfies(
            ex -> {
              assertThat(ex.getView()).isEqualTo("counts");
              assertThat(ex.getPartition()).isEqualTo(3);
              assertThat(ex.getOwner()).isEqualTo(this.owner.owner(3).describe());
              assertThat(ex.getMessage()).contains("did not answer within 500 ms");
            });
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isGreaterThanOrEqualTo(TIMEOUT)
        .isLessThan(TIMEOUT.plusSeconds(5));
  }

  @Test
  void answersServiceUnavailableWhenTheOwnerCannotBeReached() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    ViewQueryService unreachable = service(closedPort);
    assertThatExceptionOfType(ViewUnavailableException.class)
        .isThrownBy(() -> unreachable.get("counts", "k-1", CallerContext.direct()))
        .satisfies(
            ex -> {
              assertThat(ex.getPartition()).isEqualTo(3);
              assertThat(ex.getMessage()).contains("127.0.0.1:" + closedPort, "cannot be reached");
              assertThat(ex.getRetryAfter()).isPositive();
            });
  }

  @Test
  void neverForwardsARequestThatWasForwardedAlready() {
    assertThatExceptionOfType(ViewUnavailableException.class)
        .isThrownBy(() -> this.service.get("counts", "k-1", new CallerContext(true, null)))
        .withMessageContaining("forwarded request for partition 3");
    assertThat(this.owner.received()).isEmpty();
  }

  private ViewQueryService service(int port) {
    ViewSerdes serdes = new ViewSerdes(JsonMapper.builder().build());
    ViewRegistry registry =
        ViewRegistry.of(
            Map.of("counts", Views.from("events", Event.class).count()), serdes, "forwarding");
    Routing remoteOwner = new StubRouting(new PartitionOwner(3, new HostInfo("127.0.0.1", port)));
    LocalInstance self = new LocalInstance();
    self.setHostInfo(new HostInfo("127.0.0.1", 1));
    return new ViewQueryService(
        registry,
        remoteOwner,
        new LocalStores(() -> null),
        new PeerClient("/views", TIMEOUT, null),
        self,
        new KeyParser(serdes.mapper()),
        Clock.systemUTC());
  }

  record Event(String id) {}

  /** Says that one remote instance owns every key. */
  private record StubRouting(PartitionOwner owner) implements Routing {

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
}
