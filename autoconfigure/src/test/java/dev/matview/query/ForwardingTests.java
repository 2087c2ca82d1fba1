package dev.matview.query;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.peer.PeerResponse;
import dev.matview.peer.ProblemTypes;
import dev.matview.peer.TestPeers;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.local.LocalReplicas;
import dev.matview.query.local.LocalStores;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.StaleReads;
import dev.matview.query.scan.CursorCodec;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.HostInfo;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Forwarding a lookup to the owning instance, with a stub owner put in place through the routing
 * seam: answers are passed on, requests are signed and encoded exactly, credentials go along only
 * where the network allows, a slow owner gives 504 within the timeout and an unreachable one 503,
 * neither naming the owner.
 */
class ForwardingTests {

  private static final Duration TIMEOUT = Duration.ofMillis(500);

  /** Long enough for a first request in a busy JVM, where the owner is meant to answer. */
  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(5);

  private final StubInstance owner =
      new StubInstance()
          .answering(200, Map.of("Matview-Served-By", "owner:1"), "{\"key\":\"k-1\",\"value\":42}");

  private final ViewQueryService service =
      service(this.owner.owner(3).host().port(), false, ANSWER_TIMEOUT);

  @AfterEach
  void stopStubOwner() {
    this.owner.close();
  }

  @Test
  void passesTheOwnersAnswerOnWithTheForwardedMarkerAndASignatureTheOwnerAccepts() {
    Routed<KeyAnswer> routed =
        this.service.get("counts", "k-1", new CallerContext(false, "Bearer secret")).join();
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
              assertThat(StubInstance.signedBy(TestPeers.requests(), request)).isTrue();
            });
  }

  @Test
  void keepsTheCallersCredentialsFromAPeerReachedOverPlainHttp() {
    this.service.get("counts", "k-1", new CallerContext(false, "Bearer secret")).join();
    assertThat(this.owner.received())
        .singleElement()
        .satisfies(request -> assertThat(request.get("authorization")).isEqualTo("null"));
  }

  @Test
  void passesTheCallersCredentialsOnOverPlainHttpWhenTheNetworkIsTrusted() {
    ViewQueryService trusting = service(this.owner.owner(3).host().port(), true, ANSWER_TIMEOUT);
    trusting.get("counts", "k-1", new CallerContext(false, "Bearer secret")).join();
    assertThat(this.owner.received())
        .singleElement()
        .satisfies(request -> assertThat(request.get("authorization")).isEqualTo("Bearer secret"));
  }

  @Test
  void encodesEveryCharacterOfAKeyThatIsNotUnreserved() {
    String key = "a/b%c+d;e f?g#h&i=j\u00fc\u6771";
    this.service.get("counts", key, CallerContext.direct()).join();
    String path = this.owner.received().get(0).get("path");
    assertThat(path)
        .isEqualTo("/views/counts/key?key=a%2Fb%25c%2Bd%3Be%20f%3Fg%23h%26i%3Dj%C3%BC%E6%9D%B1");
    assertThat(URLDecoder.decode(path.substring("/views/counts/key?key=".length()), UTF_8))
        .isEqualTo(key);
  }

  @Test
  void encodesInstantsAfterTheYear9999SoThatTheirPlusArrives() {
    Instant to = Instant.parse("+10000-01-01T00:00:00Z");
    this.service
        .windows(
            "per-minute", "k-1", Instant.parse("2026-01-01T00:00:00Z"), to, CallerContext.direct())
        .join();
    assertThat(this.owner.received().get(0).get("path"))
        .isEqualTo(
            "/views/per-minute/keys/k-1/windows?from=2026-01-01T00%3A00%3A00Z"
                + "&to=%2B10000-01-01T00%3A00%3A00Z");
  }

  @Test
  void answersGatewayTimeoutWithinTheTimeoutWhenTheOwnerIsSlow() {
    this.owner.hanging();
    ViewQueryService impatient = service(this.owner.owner(3).host().port(), false, TIMEOUT);
    long started = System.nanoTime();
    Refusal refusal =
        StaleReadTests.refusal(impatient.get("counts", "k-1", CallerContext.direct()).join());
    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.TIMEOUT);
    assertThat(refusal.view()).isEqualTo("counts");
    assertThat(refusal.partition()).isEqualTo(3);
    assertThat(refusal.detail())
        .contains("did not answer within 500 ms")
        .doesNotContain("127.0.0.1");
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
    ViewQueryService unreachable = service(closedPort, false, TIMEOUT);
    Refusal refusal =
        StaleReadTests.refusal(unreachable.get("counts", "k-1", CallerContext.direct()).join());
    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.UNREACHABLE);
    assertThat(refusal.partition()).isEqualTo(3);
    assertThat(refusal.detail())
        .contains("another instance", "cannot be reached")
        .doesNotContain("127.0.0.1", Integer.toString(closedPort));
    assertThat(refusal.retryAfter()).isPositive();
  }

  @Test
  void passesTheOwnersKeyNotFoundOn() {
    this.owner.answering(
        404,
        Map.of("Content-Type", "application/problem+json"),
        "{\"type\":\"" + ProblemTypes.BASE + "key-not-found\",\"status\":404}");
    Routed<KeyAnswer> routed = this.service.get("counts", "k-1", CallerContext.direct()).join();
    assertThat(routed).isInstanceOf(Routed.Relayed.class);
    assertThat(((Routed.Relayed<KeyAnswer>) routed).response().status()).isEqualTo(404);
  }

  @Test
  void saysTheInstancesServeTheLookupsAtDifferentPathsWhenTheOwnerAnswersAnother404() {
    this.owner.answering(
        404,
        Map.of("Content-Type", "application/problem+json"),
        "{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404}");
    Routed<KeyAnswer> routed = this.service.get("counts", "k-1", CallerContext.direct()).join();
    assertThat(routed)
        .asInstanceOf(InstanceOfAssertFactories.type(Routed.Refused.class))
        .extracting(Routed.Refused::refusal)
        .satisfies(
            refusal -> {
              assertThat(refusal.reason()).isEqualTo(Refusal.Reason.FAILED);
              assertThat(refusal.detail())
                  .contains("server.servlet.context-path")
                  .contains("matview.web.base-path")
                  .doesNotContain("127.0.0.1");
            });
  }

  @Test
  void neverForwardsARequestThatWasForwardedAlready() {
    assertThat(
            StaleReadTests.refusal(
                    this.service.get("counts", "k-1", new CallerContext(true, null)).join())
                .detail())
        .contains("forwarded request for partition 3")
        .doesNotContain("127.0.0.1");
    assertThat(this.owner.received()).isEmpty();
  }

  @Test
  void saysTheInstancesDoNotShareASecretWhenTheOwnerRefusesASliceRequest() {
    this.owner.answering(403, Map.of(), "{\"status\":403}");
    ViewScanService scans = scans();
    Routed<?> answer = scans.keys("counts", null, null, 10, null, CallerContext.direct()).join();
    assertThat(answer).isInstanceOf(Routed.Refused.class);
    assertThat(((Routed.Refused<?>) answer).refusal().detail())
        .contains("do not share one secret")
        .contains("matview.peers.secret")
        .doesNotContain("127.0.0.1");
    assertThat(this.owner.received().get(0).get("path"))
        .isEqualTo("/views/counts/partitions/3/keys?limit=10");
  }

  @Test
  void refusesASliceWhoseWindowBoundsAreNotEpochMilliseconds() {
    this.owner.answering(
        200,
        Map.of(),
        "{\"items\":[{\"key\":\"k-1\",\"start\":\"2026-03-01T10:00:00Z\",\"end\":60000,"
            + "\"value\":1}],\"last\":null,\"exhausted\":true}");
    Instant from = Instant.parse("2026-03-01T10:00:00Z");
    Routed<?> answer =
        scans()
            .windows("per-minute", from, from.plusSeconds(60), 10, null, CallerContext.direct())
            .join();
    assertThat(answer).isInstanceOf(Routed.Refused.class);
    assertThat(((Routed.Refused<?>) answer).refusal().detail())
        .contains("sent a slice that cannot be read")
        .contains("start")
        .doesNotContain("127.0.0.1");
  }

  private ViewScanService scans() {
    ViewSerdes serdes = new ViewSerdes(JsonMapper.builder().build());
    return new ViewScanService(
        this.service,
        new StubRouting(this.owner.owner(3)),
        new LocalStores(() -> null),
        new PeerClient("/views", ANSWER_TIMEOUT, null, TestPeers.requests(), false),
        new KeyParser(serdes.mapper()),
        new CursorCodec(TestPeers.trust()),
        serdes.mapper(),
        Clock.systemUTC(),
        100,
        null);
  }

  private ViewQueryService service(int port, boolean trustedNetwork, Duration timeout) {
    ViewSerdes serdes = new ViewSerdes(JsonMapper.builder().build());
    ViewRegistry registry =
        ViewRegistry.of(
            Map.of(
                "counts",
                Views.from("events", Event.class).count(),
                "per-minute",
                Views.from("events", Event.class)
                    .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
                    .count()),
            serdes,
            "forwarding");
    Routing remoteOwner = new StubRouting(new PartitionOwner(3, new HostInfo("127.0.0.1", port)));
    LocalInstance self = new LocalInstance();
    self.setHostInfo(new HostInfo("127.0.0.1", 1));
    return new ViewQueryService(
        registry,
        remoteOwner,
        new LocalStores(() -> null),
        new PeerClient("/views", timeout, null, TestPeers.requests(), trustedNetwork),
        self,
        new KeyParser(serdes.mapper()),
        Clock.systemUTC(),
        StaleReads.disabled(),
        LocalReplicas.NONE,
        LookupMetrics.NONE);
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
