package dev.matview.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.changes.ChangeStreams;
import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.RawHttp;
import dev.matview.processes.http.RawStream;
import dev.matview.processes.http.ServerSentEvent;
import dev.matview.processes.http.ServerSentEventReader;
import dev.matview.view.Aggregation;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Change streams on two instances: a key's stream starts with its current value and then sees every
 * update in order, from the owner and relayed by the other instance; a stream that reconnects with
 * its last id goes on without a gap or a duplicate; a bad id is a 400; a client that stops reading
 * holds at most the buffer and is dropped after its last update before a gap; two thousand streams
 * hold no thread each, streams beyond the cap are a 429, and abandoned ones are counted back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChangeStreamIntegrationTests {

  private static final String TOPIC = "likes";

  private static final String VIEW = "likes-per-post";

  private static final String OPAQUE_VIEW = "opaque-likes-per-post";

  private static final int MAX_STREAMS = 2000;

  private static final int BUFFER = 200;

  private static final int SLOW_CLIENT_UPDATES = 40_000;

  /** More clients that stop reading than the threads that write every stream's events. */
  private static final int STALLED_CLIENTS = 3;

  private static final String SECRET = "changes-it-shared-secret-0123456789abcdef";

  /** How long a test waits for a stream's next event. */
  private static final Duration EVENT_WAIT = Duration.ofSeconds(30);

  @TempDir static Path stateDirs;

  private final JsonMapper json = JsonMapper.builder().build();

  private LikesCluster cluster;

  private List<ClusterInstance> instances;

  @BeforeAll
  void startTwoInstances() {
    this.cluster =
        LikesCluster.start(
            TOPIC,
            ChangesApp.class,
            "changes-it",
            stateDirs,
            "--matview.peers.secret=" + SECRET,
            "--matview.changes.max-streams=" + MAX_STREAMS,
            "--matview.changes.buffer=" + BUFFER,
            "--matview.changes.heartbeat=500ms");
    this.instances = this.cluster.instances();
    this.cluster.likeAndAwaitServed(8, ChangeStreamIntegrationTests::path);
  }

  @AfterAll
  void stopEverything() {
    if (this.cluster != null) {
      this.cluster.close();
    }
  }

  @Test
  void aKeysStreamSeesItsCurrentValueThenEveryUpdateInOrderFromEitherInstance() throws Exception {
    for (ClusterInstance instance : this.instances) {
      String post = "post-1";
      long now = currentValue(post);
      try (EventReader events = open(instance, post, null)) {
        Event first = events.next();
        assertThat(first.name()).isEqualTo("value");
        assertThat(first.data().path("value").asLong()).isEqualTo(now);
        assertThat(first.id()).isNotNull();
        for (int i = 1; i <= 100; i++) {
          like(post);
        }
        for (int i = 1; i <= 100; i++) {
          Event next = events.next();
          assertThat(next.name()).isEqualTo("value");
          assertThat(next.data().path("key").asString()).isEqualTo(post);
          assertThat(next.data().path("value").asLong()).isEqualTo(now + i);
        }
      }
    }
  }

  @Test
  void aStreamThatReconnectsWithItsLastIdLosesNothingAndRepeatsNothing() throws Exception {
    String post = "post-2";
    long now = currentValue(post);
    String lastId;
    try (EventReader events = open(this.instances.get(0), post, null)) {
      events.next();
      for (int i = 1; i <= 10; i++) {
        like(post);
      }
      Event tenth = null;
      for (int i = 1; i <= 10; i++) {
        tenth = events.next();
      }
      lastId = tenth.id();
    }
    for (int i = 1; i <= 15; i++) {
      like(post);
    }
    for (ClusterInstance instance : this.instances) {
      try (EventReader events = open(instance, post, lastId)) {
        for (int i = 11; i <= 25; i++) {
          Event next = events.next();
          assertThat(next.name()).as(next.toString()).isEqualTo("value");
          assertThat(next.data().path("value").asLong()).isEqualTo(now + i);
        }
      }
    }
  }

  @Test
  void aViewsStreamSeesTheChangesOfEveryKeyOnEveryInstance() throws Exception {
    ServerSentEventReader stream =
        this.instances.get(0).http().events("/views/" + VIEW + "/changes");
    assertThat(stream.status()).isEqualTo(200);
    try (EventReader events = new EventReader(stream, this.json)) {
      java.util.Set<String> liked = new java.util.TreeSet<>();
      for (int post = 0; post < 8; post++) {
        like("post-" + post);
        liked.add("post-" + post);
      }
      java.util.Set<String> seen = new java.util.TreeSet<>();
      while (!seen.containsAll(liked)) {
        Event next = events.next();
        assertThat(next.name()).as(next.toString()).isEqualTo("value");
        seen.add(next.data().path("key").asString());
      }
      assertThat(seen).isEqualTo(liked);
    }
  }

  @Test
  void refusesALastEventIdItCannotReadWithAProblemDetail() {
    HttpProbe.Answer refused =
        this.instances
            .get(0)
            .http()
            .get(
                path("post-3") + "/changes",
                "Accept",
                "text/event-stream",
                "Last-Event-ID",
                "garbage-id");
    assertThat(refused.status()).as(refused.body()).isEqualTo(400);
    assertThat(refused.json().path("detail").asString()).contains("Last-Event-ID");
  }

  @Test
  void clientsThatStopReadingAreDroppedHoldingAtMostTheBufferAndNoThreadAfterNoGap()
      throws Exception {
    String post = "post-5";
    ClusterInstance owner = ownerOf(post);
    String other = otherPostOf(owner, post);
    ChangeStreams streams = owner.bean(ChangeStreams.class);
    await().atMost(Duration.ofSeconds(30)).until(streams::openStreams, (open) -> open == 0);
    List<ServerSentEventReader> stalled = new ArrayList<>();
    try {
      for (int i = 0; i < STALLED_CLIENTS; i++) {
        stalled.add(new ServerSentEventReader(rawStream(owner, path(post) + "/changes", 4096)));
      }
      long firstValue = -1;
      for (ServerSentEventReader stream : stalled) {
        assertThat(stream.status()).isEqualTo(200);
        ServerSentEvent first = stream.next(EVENT_WAIT);
        assertThat(first).isNotNull();
        firstValue = this.json.readTree(first.data()).path("value").asLong();
      }
      for (int i = 0; i < SLOW_CLIENT_UPDATES; i++) {
        this.cluster
            .producer()
            .send(new ProducerRecord<>(TOPIC, post, "{\"post\":\"" + post + "\"}"));
      }
      this.cluster.producer().flush();
      AtomicInteger mostWaiting = new AtomicInteger();
      await("the streams of the clients that stopped reading end")
          .atMost(Duration.ofSeconds(90))
          .until(
              () -> mostWaiting.accumulateAndGet(streams.waitingEvents(), Math::max),
              (waiting) -> streams.openStreams() == 0);
      assertThat(mostWaiting.get())
          .as("updates held at once for %d clients that stopped reading", STALLED_CLIENTS)
          .isLessThanOrEqualTo(STALLED_CLIENTS * BUFFER);
      long before = firstValue;
      await("every update is applied, so that no later test meets a burst of them")
          .atMost(Duration.ofSeconds(90))
          .until(() -> currentValue(post), (value) -> value == before + SLOW_CLIENT_UPDATES);
      try (EventReader reading = open(owner, other, null)) {
        long now = reading.next().data().path("value").asLong();
        like(other);
        assertThat(reading.next().data().path("value").asLong())
            .as("a reading client's update while the stalled ones have not read theirs")
            .isEqualTo(now + 1);
      }
      for (ServerSentEventReader stream : stalled) {
        assertEndsDroppedAfterNoGap(stream, firstValue);
      }
    } finally {
      stalled.forEach(ServerSentEventReader::close);
    }
    await("the dropped streams are counted back and hold nothing")
        .atMost(Duration.ofSeconds(30))
        .until(() -> streams.openStreams() == 0 && streams.waitingEvents() == 0);
  }

  /**
   * A stream of {@link #OPAQUE_VIEW}, whose values have no JSON form, takes its slot and listens to
   * its partition before its first read fails: each such open gives back all it took.
   */
  @Test
  void streamsThatFailToOpenGiveBackTheirSlotAndEverythingElseTheyTook() throws Exception {
    String post = "post-7";
    ClusterInstance owner = ownerOf(post);
    ChangeStreams streams = owner.bean(ChangeStreams.class);
    await().atMost(Duration.ofSeconds(30)).until(streams::openStreams, (open) -> open == 0);
    for (int i = 0; i < MAX_STREAMS + 100; i++) {
      HttpProbe.Answer failed =
          owner
              .http()
              .get(
                  "/views/" + OPAQUE_VIEW + "/keys/" + post + "/changes",
                  "Accept",
                  "text/event-stream");
      assertThat(failed.status())
          .as("a stream whose first read fails after it took its slot")
          .isEqualTo(500);
    }
    assertThat(streams.openStreams()).isZero();
    try (EventReader events = open(owner, post, null)) {
      long now = events.next().data().path("value").asLong();
      for (int i = 1; i <= 3; i++) {
        like(post);
        assertThat(events.next().data().path("value").asLong()).isEqualTo(now + i);
      }
      assertThat(streams.openStreams()).isEqualTo(1);
      await("no stream that failed to open holds the updates it was handed")
          .atMost(Duration.ofSeconds(10))
          .until(streams::waitingEvents, (waiting) -> waiting == 0);
    }
    await("the stream that opened is counted back")
        .atMost(Duration.ofSeconds(30))
        .until(streams::openStreams, (open) -> open == 0);
  }

  private void assertEndsDroppedAfterNoGap(ServerSentEventReader stream, long firstValue)
      throws Exception {
    long expected = firstValue;
    String last = "value";
    for (ServerSentEvent next = stream.nextOrEnd(EVENT_WAIT);
        next != null;
        next = stream.nextOrEnd(EVENT_WAIT)) {
      last = next.name();
      if (last.equals("value")) {
        assertThat(this.json.readTree(next.data()).path("value").asLong())
            .as("the update after %d", expected)
            .isEqualTo(++expected);
      }
    }
    assertThat(last).isEqualTo("dropped");
    assertThat(expected).isLessThan(firstValue + SLOW_CLIENT_UPDATES);
  }

  private String otherPostOf(ClusterInstance owner, String post) {
    for (int i = 0; i < 8; i++) {
      String other = "post-" + i;
      if (!other.equals(post) && ownerOf(other) == owner) {
        return other;
      }
    }
    throw new IllegalStateException("Instance " + owner.port() + " owns no post but " + post);
  }

  @Test
  void twoThousandStreamsHoldNoThreadEachAndAbandonedOnesAreCountedBackBeyondTheCap()
      throws Exception {
    String post = "post-6";
    ClusterInstance owner = ownerOf(post);
    ChangeStreams streams = owner.bean(ChangeStreams.class);
    await().atMost(Duration.ofSeconds(30)).until(streams::openStreams, (open) -> open == 0);
    String stream = path(post) + "/changes";
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long heapBefore = heapAfterGc();
    int threadsBefore = threads.getThreadCount();
    List<ServerSentEventReader> open = new ArrayList<>();
    try {
      for (int i = 0; i < MAX_STREAMS; i++) {
        open.add(new ServerSentEventReader(rawStream(owner, stream, 8192)));
      }
      for (ServerSentEventReader events : open) {
        assertThat(events.status()).isEqualTo(200);
        assertThat(events.next(EVENT_WAIT)).isNotNull();
      }
      assertThat(streams.openStreams()).isEqualTo(MAX_STREAMS);
      int threadsAdded = threads.getThreadCount() - threadsBefore;
      long heapPerStream = (heapAfterGc() - heapBefore) / MAX_STREAMS;
      assertThat(threadsAdded)
          .as("threads added by %d open streams (Tomcat's pool alone may grow by 200)", MAX_STREAMS)
          .isLessThan(250);
      assertThat(heapPerStream)
          .as(
              "heap per open stream in bytes, the client's side in this JVM and Tomcat's buffers"
                  + " of an open request (about 90 KB) included")
          .isLessThan(160 * 1024);
      try (RawStream refused = rawStream(owner, stream, 8192)) {
        assertThat(refused.status()).isEqualTo(429);
        assertThat(this.json.readTree(refused.rest()).path("detail").asString())
            .contains("matview.changes.max-streams");
      }
    } finally {
      open.forEach(ServerSentEventReader::close);
    }
    await("abandoned streams are counted back")
        .atMost(Duration.ofSeconds(30))
        .until(streams::openStreams, (count) -> count == 0);
    try (ServerSentEventReader again = new ServerSentEventReader(rawStream(owner, stream, 8192))) {
      assertThat(again.status()).isEqualTo(200);
      assertThat(again.next(EVENT_WAIT)).isNotNull();
    }
  }

  private ClusterInstance ownerOf(String post) {
    return this.cluster.servingOf(path(post));
  }

  private static long heapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private long currentValue(String post) {
    return this.instances.get(0).http().get(path(post)).json().path("value").asLong();
  }

  private void like(String post) {
    this.cluster.like(post);
  }

  private EventReader open(ClusterInstance instance, String post, String lastEventId) {
    String changes = path(post) + "/changes";
    ServerSentEventReader stream =
        (lastEventId != null)
            ? instance.http().events(changes, "Last-Event-ID", lastEventId)
            : instance.http().events(changes);
    assertThat(stream.status()).isEqualTo(200);
    return new EventReader(stream, this.json);
  }

  /**
   * A key's stream asked of {@code instance} on a socket of its own that receives at most about
   * {@code receiveBuffer} bytes ahead of the test, which reads it only when it likes: raw, since a
   * client that stops reading, and thousands of open streams whose threads and heap this JVM
   * counts, are about the socket and nothing else.
   */
  private static RawStream rawStream(ClusterInstance instance, String stream, int receiveBuffer) {
    return new RawHttp(instance.port(), EVENT_WAIT)
        .open(stream, Map.of("Accept", "text/event-stream"), receiveBuffer);
  }

  private static String path(String post) {
    return "/views/" + VIEW + "/keys/" + post;
  }

  /** One event as read off the stream. */
  record Event(String name, JsonNode data, String id) {}

  /** Reads a stream's events one at a time, their data as JSON. */
  static final class EventReader implements AutoCloseable {

    private final ServerSentEventReader events;

    private final JsonMapper json;

    EventReader(ServerSentEventReader events, JsonMapper json) {
      this.events = events;
      this.json = json;
    }

    Event next() throws InterruptedException {
      ServerSentEvent event = this.events.next(EVENT_WAIT);
      return new Event(event.name(), this.json.readTree(event.data()), event.id());
    }

    @Override
    public void close() {
      this.events.close();
    }
  }

  record Like(String post) {}

  /** A count that Jackson cannot write: its one property fails. */
  static final class Opaque {

    private final long count;

    Opaque(long count) {
      this.count = count;
    }

    public long getCount() {
      throw new UnsupportedOperationException("An opaque count has no JSON form");
    }
  }

  /** Stores an {@link Opaque} as its 8 bytes. */
  static final class OpaqueSerde implements Serde<Opaque> {

    @Override
    public Serializer<Opaque> serializer() {
      return (topic, opaque) ->
          (opaque != null) ? ByteBuffer.allocate(Long.BYTES).putLong(opaque.count).array() : null;
    }

    @Override
    public Deserializer<Opaque> deserializer() {
      return (topic, bytes) ->
          (bytes != null) ? new Opaque(ByteBuffer.wrap(bytes).getLong()) : null;
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class ChangesApp {

    @MaterializedView(VIEW)
    ViewDefinition<String, Like, Long> likesPerPost() {
      return Views.from(TOPIC, Like.class).count();
    }

    @MaterializedView(OPAQUE_VIEW)
    ViewDefinition<String, Like, Opaque> opaqueLikesPerPost() {
      return Views.from(TOPIC, Like.class)
          .aggregate(
              Opaque.class,
              new Aggregation<String, Like, Opaque>() {
                @Override
                public Opaque initial() {
                  return new Opaque(0);
                }

                @Override
                public Opaque add(String key, Like like, Opaque count) {
                  return new Opaque((count != null ? count.count : 0) + 1);
                }
              })
          .withAggregateSerde(new OpaqueSerde());
    }
  }
}
