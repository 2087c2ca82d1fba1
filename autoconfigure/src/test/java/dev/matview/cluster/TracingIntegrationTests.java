package dev.matview.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.peer.PeerRequests;
import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.ServerSentEventReader;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.exporter.FinishedSpan;
import io.micrometer.tracing.exporter.SpanReporter;
import io.micrometer.tracing.test.simple.SpansAssert;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Traces across two instances, with Spring Boot's tracing on Brave and every request sampled: a
 * lookup of a key that the other instance owns, a change stream relayed from it and a streamed scan
 * that reads its partitions are each one trace across both instances, the owner's server span a
 * child of the client span of the request the asking instance sent it, and Matview's own spans
 * between the server spans and the requests they cause; a trace context forged on a signed peer
 * request, which the signature does not cover, changes nothing but the trace the owner's spans
 * join.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TracingIntegrationTests {

  private static final String TOPIC = "traced-likes";

  private static final String VIEW = "traced-likes-per-post";

  private static final String SECRET = "tracing-it-shared-secret-0123456789abcdef";

  private static final int POSTS = 16;

  private static final Duration SPANS_WAIT = Duration.ofSeconds(30);

  @TempDir static Path stateDirs;

  private LikesCluster cluster;

  private List<ClusterInstance> instances;

  @BeforeAll
  void startTwoTracedInstances() {
    this.cluster =
        LikesCluster.start(
            TOPIC,
            TracedApp.class,
            "tracing-it",
            stateDirs,
            "--matview.peers.secret=" + SECRET,
            "--matview.changes.heartbeat=500ms",
            "--management.tracing.sampling.probability=1.0");
    this.instances = this.cluster.instances();
    this.cluster.likeAndAwaitServed(POSTS, TracingIntegrationTests::path);
  }

  @AfterAll
  void stopEverything() {
    if (this.cluster != null) {
      this.cluster.close();
    }
  }

  @Test
  void aLookupForwardedToTheKeysOwnerIsOneTraceAcrossBothInstances() {
    ClusterInstance asking = this.instances.get(0);
    ClusterInstance owner = this.instances.get(1);
    String post = ownedBy(owner);
    HttpProbe.Answer answer = asking.http().get(path(post));
    assertThat(answer.status()).isEqualTo(200);
    FinishedSpan lookup =
        awaitSpan(
            asking,
            span ->
                span.getName().equals("matview.lookup key")
                    && "forwarded".equals(span.getTags().get("outcome"))
                    && !spans(owner, span.getTraceId()).isEmpty());
    List<FinishedSpan> trace = trace(lookup.getTraceId());
    SpansAssert.assertThat(trace)
        .haveSameTraceId()
        .hasASpanWithName(
            "matview.peer.exchange key",
            span ->
                span.hasKindEqualTo(Span.Kind.CLIENT)
                    .hasTag("view", VIEW)
                    .hasTag("status", "200")
                    .hasTag("outcome", "answered"));
    FinishedSpan exchange = named(spans(asking, lookup.getTraceId()), "matview.peer.exchange key");
    assertThat(exchange.getParentId()).isEqualTo(lookup.getSpanId());
    FinishedSpan ownerServer = ownersServerSpan(owner, lookup.getTraceId());
    assertThat(ownerServer.getParentId()).isEqualTo(exchange.getSpanId());
    FinishedSpan ownerLookup = named(spans(owner, lookup.getTraceId()), "matview.lookup key");
    assertThat(ownerLookup.getParentId()).isEqualTo(ownerServer.getSpanId());
    assertThat(ownerLookup.getTags()).containsEntry("outcome", "local");
    FinishedSpan askingServer =
        only(spans(asking, lookup.getTraceId()), span -> span.getKind() == Span.Kind.SERVER);
    assertThat(lookup.getParentId()).isEqualTo(askingServer.getSpanId());
  }

  @Test
  void aChangeStreamRelayedFromTheKeysOwnerIsOneTraceAcrossBothInstances() throws Exception {
    ClusterInstance asking = this.instances.get(0);
    ClusterInstance owner = this.instances.get(1);
    String post = ownedBy(owner);
    try (ServerSentEventReader events = asking.http().events(path(post) + "/changes")) {
      assertThat(events.status()).isEqualTo(200);
      assertThat(events.next(SPANS_WAIT).name()).isEqualTo("value");
    }
    FinishedSpan stream =
        awaitSpan(
            asking,
            span ->
                span.getName().equals("matview.change-stream key")
                    && "relayed".equals(span.getTags().get("outcome"))
                    && spans(owner, span.getTraceId()).stream()
                        .anyMatch(server -> server.getKind() == Span.Kind.SERVER));
    FinishedSpan relay =
        named(spans(asking, stream.getTraceId()), "matview.peer.exchange key-changes");
    assertThat(relay.getParentId()).isEqualTo(stream.getSpanId());
    assertThat(relay.getKind()).isEqualTo(Span.Kind.CLIENT);
    assertThat(ownersServerSpan(owner, stream.getTraceId()).getParentId())
        .isEqualTo(relay.getSpanId());
    FinishedSpan ownersStream =
        awaitSpan(
            owner,
            span ->
                span.getTraceId().equals(stream.getTraceId())
                    && span.getName().equals("matview.change-stream key"));
    assertThat(ownersStream.getTags()).containsEntry("outcome", "local");
    SpansAssert.assertThat(trace(stream.getTraceId()))
        .haveSameTraceId()
        .hasNumberOfSpansWithNameEqualTo("matview.change-stream key", 2);
  }

  @Test
  void aStreamedScanReadingTheOtherInstancesPartitionsIsOneTraceAcrossBothInstances() {
    ClusterInstance asking = this.instances.get(0);
    ClusterInstance owner = this.instances.get(1);
    HttpProbe.Answer scan =
        asking.http().get("/views/" + VIEW + "/keys", "Accept", "application/x-ndjson");
    assertThat(scan.status()).isEqualTo(200);
    assertThat(scan.body()).contains("post-0").contains("post-" + (POSTS - 1));
    FinishedSpan scanned =
        awaitSpan(
            asking,
            span ->
                span.getName().equals("matview.scan keys")
                    && "stream".equals(span.getTags().get("mode"))
                    && spans(owner, span.getTraceId()).stream()
                        .anyMatch(server -> server.getKind() == Span.Kind.SERVER));
    assertThat(scanned.getTags()).containsEntry("outcome", "complete");
    List<FinishedSpan> slices =
        spans(asking, scanned.getTraceId()).stream()
            .filter(span -> span.getName().startsWith("matview.peer.exchange slice"))
            .toList();
    assertThat(slices)
        .isNotEmpty()
        .allSatisfy(slice -> assertThat(slice.getParentId()).isEqualTo(scanned.getSpanId()));
    assertThat(ownersServerSpan(owner, scanned.getTraceId()).getParentId())
        .isIn(slices.stream().map(FinishedSpan::getSpanId).toList());
  }

  @Test
  void aTraceContextForgedOnASignedPeerRequestChangesNothingButTheTraceItsSpansJoin() {
    ClusterInstance owner = this.instances.get(1);
    String post = ownedBy(owner);
    String[] signed = PeerHeaders.signedGet(owner.bean(PeerRequests.class), path(post));
    HttpProbe.Answer untraced = owner.http().get(path(post), signed);
    String forgedTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    String forgedParent = "00f067aa0ba902b7";
    String traceparent = "00-" + forgedTrace + "-" + forgedParent + "-01";
    HttpProbe.Answer forged =
        owner.http().get(path(post), with(signed, "traceparent", traceparent));
    assertThat(untraced.status()).isEqualTo(200);
    assertThat(forged.status()).isEqualTo(200);
    assertThat(forged.body()).isEqualTo(untraced.body());
    assertThat(ownersServerSpan(owner, forgedTrace).getParentId()).isEqualTo(forgedParent);
    String[] badlySigned = PeerHeaders.signed("not-a-signature");
    HttpProbe.Answer refused =
        owner.http().get(path(post), with(badlySigned, "traceparent", traceparent));
    assertThat(refused.status()).isEqualTo(403);
  }

  /** A post whose partition {@code owner} holds, as the first instance answers it. */
  private String ownedBy(ClusterInstance owner) {
    for (int post = 0; post < POSTS; post++) {
      if (this.cluster.servingOf(path("post-" + post)) == owner) {
        return "post-" + post;
      }
    }
    throw new IllegalStateException("The other instance owns none of the posts");
  }

  private FinishedSpan awaitSpan(ClusterInstance instance, Predicate<FinishedSpan> wanted) {
    List<FinishedSpan> found = new ArrayList<>();
    await("a span of the trace on both instances")
        .atMost(SPANS_WAIT)
        .untilAsserted(
            () -> {
              found.clear();
              instance.bean(Spans.class).finished().stream().filter(wanted).forEach(found::add);
              assertThat(found).isNotEmpty();
            });
    return found.get(found.size() - 1);
  }

  /** The server span on {@code owner} of the trace {@code traceId}, once it has ended. */
  private FinishedSpan ownersServerSpan(ClusterInstance owner, String traceId) {
    List<FinishedSpan> servers = new ArrayList<>();
    await("the owner's server span ends")
        .atMost(SPANS_WAIT)
        .untilAsserted(
            () -> {
              servers.clear();
              spans(owner, traceId).stream()
                  .filter(span -> span.getKind() == Span.Kind.SERVER)
                  .forEach(servers::add);
              assertThat(servers).isNotEmpty();
            });
    return servers.get(0);
  }

  private List<FinishedSpan> trace(String traceId) {
    List<FinishedSpan> trace = new ArrayList<>();
    for (ClusterInstance instance : this.instances) {
      trace.addAll(spans(instance, traceId));
    }
    return trace;
  }

  private static List<FinishedSpan> spans(ClusterInstance instance, String traceId) {
    return instance.bean(Spans.class).finished().stream()
        .filter(span -> span.getTraceId().equals(traceId))
        .toList();
  }

  private static FinishedSpan named(List<FinishedSpan> spans, String name) {
    return only(spans, span -> span.getName().equals(name));
  }

  private static FinishedSpan only(List<FinishedSpan> spans, Predicate<FinishedSpan> wanted) {
    List<FinishedSpan> matching = spans.stream().filter(wanted).toList();
    assertThat(matching).as("spans among %s", spans).hasSize(1);
    return matching.get(0);
  }

  private static String[] with(String[] headers, String name, String value) {
    String[] more = Arrays.copyOf(headers, headers.length + 2);
    more[headers.length] = name;
    more[headers.length + 1] = value;
    return more;
  }

  private static String path(String post) {
    return "/views/" + VIEW + "/keys/" + post;
  }

  record Like(String post) {}

  /** The spans an instance finished, as Micrometer Tracing reports them. */
  static final class Spans implements SpanReporter {

    private final List<FinishedSpan> finished = new CopyOnWriteArrayList<>();

    @Override
    public void report(FinishedSpan span) {
      this.finished.add(span);
    }

    List<FinishedSpan> finished() {
      return this.finished;
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class TracedApp {

    @MaterializedView(VIEW)
    ViewDefinition<String, Like, Long> tracedLikesPerPost() {
      return Views.from(TOPIC, Like.class).count();
    }

    @Bean
    Spans spans() {
      return new Spans();
    }
  }
}
