package dev.matview.changes;

import dev.matview.topology.ResolvedView;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * The change streams of this instance's partitions while they are open: each made with the same
 * buffer, its waiting updates counted together, written by the workers, and given a heartbeat every
 * so often, so that a client that went away is noticed.
 */
final class LiveStreams implements AutoCloseable {

  private final EventIds ids;

  private final String applicationId;

  private final ObjectMapper mapper;

  private final int buffer;

  private final AtomicInteger waiting = new AtomicInteger();

  private final Executor dispatcher;

  private final ScheduledFuture<?> heartbeats;

  private final Set<ChangeStream> live = ConcurrentHashMap.newKeySet();

  private final Map<String, ViewEvents> events = new ConcurrentHashMap<>();

  /** The open streams of every key of a view, which a part's heartbeat may not reach. */
  private final Set<ViewStream> views = ConcurrentHashMap.newKeySet();

  /**
   * Streams whose events carry the ids of {@code ids} and JSON of {@code mapper}, each keeping at
   * most {@code buffer} events waiting, written by {@code workers}, to which {@code timer} hands a
   * heartbeat every {@code heartbeat}.
   */
  LiveStreams(
      EventIds ids,
      String applicationId,
      ObjectMapper mapper,
      int buffer,
      Duration heartbeat,
      ScheduledExecutorService timer,
      Executor workers) {
    this.ids = ids;
    this.applicationId = applicationId;
    this.mapper = mapper;
    this.buffer = buffer;
    this.dispatcher = workers;
    this.heartbeats =
        timer.scheduleWithFixedDelay(
            () -> beatOn(workers),
            heartbeat.toMillis(),
            heartbeat.toMillis(),
            TimeUnit.MILLISECONDS);
  }

  private void beatOn(Executor workers) {
    try {
      workers.execute(this::beat);
    } catch (RejectedExecutionException ex) {
      // the workers take no more now: the next heartbeat comes in time
    }
  }

  private void beat() {
    this.live.removeIf(ChangeStream::hasEnded);
    this.live.forEach(ChangeStream::heartbeat);
    this.views.removeIf(ViewStream::hasEnded);
    this.views.forEach(ViewStream::beatWithoutParts);
  }

  /** How many updates wait in these streams for clients that have not read them yet. */
  int waitingEvents() {
    return this.waiting.get();
  }

  /** The events of {@code view}'s updates, shared by all its streams. */
  ViewEvents events(ResolvedView<?, ?, ?> view) {
    return this.events.computeIfAbsent(
        view.name(),
        (name) ->
            new ViewEvents(
                name,
                new ChangeDecoder(view, view.changelogTopic(this.applicationId), this.mapper),
                this.ids));
  }

  /**
   * A stream of {@code key}'s updates in {@code partition} of the view of {@code events}, or of
   * every key's when {@code null}, into {@code sink}, which the heartbeats reach.
   */
  ChangeStream open(
      byte @Nullable [] key, ViewEvents events, int partition, ChangeSink sink, Runnable onEnd) {
    ChangeStream stream =
        new ChangeStream(
            key,
            this.buffer,
            this.waiting,
            (change) -> events.of(partition, change),
            sink,
            this.dispatcher,
            onEnd);
    this.live.add(stream);
    return stream;
  }

  /** Ends {@code stream}, which failed to start, and lets it go. */
  void abandon(ChangeStream stream) {
    stream.end();
    this.live.remove(stream);
  }

  /** Gives {@code stream} of every key of a view the heartbeats its parts may not reach. */
  void add(ViewStream stream) {
    this.views.add(stream);
  }

  /** Stops the heartbeats. */
  @Override
  public void close() {
    this.heartbeats.cancel(false);
  }
}
