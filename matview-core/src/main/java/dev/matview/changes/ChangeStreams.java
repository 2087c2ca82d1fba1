package dev.matview.changes;

import dev.matview.position.PositionTokens;
import dev.matview.query.KeyParser;
import dev.matview.query.ViewQueryService;
import dev.matview.query.answer.Futures;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.WindowsAnswer;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.Routing;
import dev.matview.replica.AppliedOffset;
import dev.matview.replica.StoreChange;
import dev.matview.replica.StorePositions;
import dev.matview.topology.ResolvedView;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * Opens change streams of views' keys: from this instance's store partition when it runs the key's
 * active replica, else relayed from the instance that does ({@link UpstreamChanges}). A stream
 * starts with the key's current value, or, with a {@code Last-Event-ID} its partition's feed still
 * holds the updates after, with those; at most {@code maxStreams} are open at once.
 */
public final class ChangeStreams implements AutoCloseable {

  /**
   * How many times a stream's first value is read until no record of its partition was being
   * processed meanwhile, so that no update is both in that value and sent after it; under a load
   * that never pauses so long, the last read is taken as it is.
   */
  private static final int SNAPSHOT_ATTEMPTS = 100;

  private final ViewQueryService queries;

  private final Routing routing;

  private final StorePositions positions;

  private final KeyParser keys;

  private final ObjectMapper mapper;

  private final EventIds ids;

  private final UpstreamChanges upstream;

  private final String applicationId;

  private final int buffer;

  private final StreamSlots slots;

  private final AtomicInteger waiting = new AtomicInteger();

  private final Executor dispatcher;

  private final ScheduledFuture<?> heartbeats;

  private final Set<ChangeStream> live = ConcurrentHashMap.newKeySet();

  /** The open streams of every key of a view, which a part's heartbeat may not reach. */
  private final Set<ViewStream> views = ConcurrentHashMap.newKeySet();

  /**
   * Streams that read this instance's partitions through {@code positions}, look current values up
   * with {@code queries}, relay others through {@code upstream}, keep at most {@code buffer} events
   * waiting per stream, serve at most {@code maxStreams} at once and write each a heartbeat every
   * {@code heartbeat}: {@code timer} hands the heartbeats to {@code workers}, which write every
   * stream's events.
   */
  public ChangeStreams(
      ViewQueryService queries,
      Routing routing,
      StorePositions positions,
      ObjectMapper mapper,
      PositionTokens tokens,
      UpstreamChanges upstream,
      int buffer,
      int maxStreams,
      Duration heartbeat,
      ScheduledExecutorService timer,
      Executor workers) {
    this.queries = queries;
    this.routing = routing;
    this.positions = positions;
    this.keys = new KeyParser(mapper);
    this.mapper = mapper;
    this.ids = new EventIds(tokens);
    this.upstream = upstream;
    this.applicationId = queries.applicationId();
    this.buffer = buffer;
    this.slots = new StreamSlots(maxStreams);
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

  /** How many change streams this instance serves now, relayed ones included. */
  public int openStreams() {
    return this.slots.taken();
  }

  /** How many updates wait in this instance's streams for clients that have not read them yet. */
  public int waitingEvents() {
    return this.waiting.get();
  }

  /**
   * Opens the stream of {@code rawKey}'s changes in {@code viewName} into {@code sink}, going on
   * after {@code lastEventId} when given.
   *
   * @throws TooManyStreamsException when {@code maxStreams} are open
   * @throws InvalidQueryException when the key or the id cannot be read
   * @throws dev.matview.query.answer.ViewUnavailableException when no instance can serve it now
   */
  public void openKey(
      String viewName,
      String rawKey,
      @Nullable String lastEventId,
      CallerContext caller,
      ChangeSink sink) {
    ResolvedView<?, ?, ?> view = this.queries.view(viewName);
    StreamSlots.Slot slot = this.slots.take(viewName);
    try {
      openKeyOf(view, rawKey, lastEventId, caller, sink, slot);
    } catch (RuntimeException ex) {
      slot.release();
      throw ex;
    }
  }

  private <K> void openKeyOf(
      ResolvedView<K, ?, ?> view,
      String rawKey,
      @Nullable String lastEventId,
      CallerContext caller,
      ChangeSink sink,
      StreamSlots.Slot slot) {
    K key = parse(view, rawKey);
    if (!(this.routing.placeKey(view, key) instanceof KeyReplicas replicas)) {
      throw notNow(view, key, null, "the instances rebalance and the key's owner is not known");
    }
    int partition = replicas.active().partition();
    EventIds.@Nullable Resume resume =
        (lastEventId != null) ? resume(view, partition, lastEventId) : null;
    if (!this.routing.isLocal(replicas.active())) {
      if (caller.forwarded()) {
        throw notNow(view, key, partition, "its partition moved to another instance");
      }
      this.upstream.relay(
          view.name(), rawKey, replicas.active(), lastEventId, caller, sink, slot::release);
      return;
    }
    AppliedOffset applied = this.positions.of(view.storeName(), partition);
    if (applied == null) {
      throw notNow(view, key, partition, "its store partition here is not open yet");
    }
    String storeTopic = view.changelogTopic(this.applicationId);
    ChangeDecoder decoder = new ChangeDecoder(view, storeTopic, this.mapper);
    byte[] keyBytes = view.keySerde().serializer().serialize(storeTopic, key);
    String viewName = view.name();
    ChangeStream[] self = new ChangeStream[1];
    ChangeStream stream =
        stream(
            keyBytes,
            viewName,
            partition,
            decoder,
            sink,
            () -> {
              applied.changes().stop(self[0]);
              slot.release();
            });
    self[0] = stream;
    sink.whenGone(stream::end);
    applied.changes().listen(stream, applied.begun());
    try {
      startKey(view, key, rawKey, lastEventId, caller, resume, applied, decoder, stream);
    } catch (RuntimeException ex) {
      stream.end();
      this.live.remove(stream);
      throw ex;
    }
  }

  /**
   * Starts {@code stream} of {@code key}: after {@code resume} when the partition's feed still
   * holds the updates after it, else with the key's current value.
   */
  private void startKey(
      ResolvedView<?, ?, ?> view,
      Object key,
      String rawKey,
      @Nullable String lastEventId,
      CallerContext caller,
      EventIds.@Nullable Resume resume,
      AppliedOffset applied,
      ChangeDecoder decoder,
      ChangeStream stream) {
    String viewName = view.name();
    int partition = applied.partition();
    if (resume != null) {
      List<StoreChange> missed =
          (resume.offset() >= 0)
              ? applied.changes().since(resume.offset(), resume.sequence())
              : null;
      if (missed != null) {
        stream.start(List.of(), missed, resume.offset(), resume.sequence(), lastEventId);
        return;
      }
    }
    List<ChangeEvent> first = new ArrayList<>();
    if (lastEventId != null) {
      first.add(
          new ChangeEvent(
              ChangeEvent.Kind.SKIPPED,
              decoder.json(
                  Map.of(
                      "reason",
                      "this instance no longer holds the updates after Last-Event-ID; the stream"
                          + " starts again from the current value")),
              null));
    }
    long from = applied.applied();
    ChangeEvent value = null;
    for (int attempt = 1; value == null; attempt++) {
      long begun = applied.begun();
      from = applied.applied();
      ChangeEvent read =
          current(
              view,
              key,
              rawKey,
              caller,
              decoder,
              this.ids.of(viewName, partition, from, Integer.MAX_VALUE));
      if ((begun == from && applied.begun() == begun) || attempt == SNAPSHOT_ATTEMPTS) {
        value = read;
      } else {
        Thread.yield();
      }
    }
    first.add(value);
    stream.start(first, List.of(), from, Integer.MAX_VALUE, value.id());
  }

  /**
   * Opens the stream of every key's changes in {@code viewName} into {@code sink}: this instance's
   * partitions, and, unless another instance asked, every other instance's relayed. It starts with
   * the changes from now on; a {@code Last-Event-ID} is answered with a skipped event, since a
   * view's stream cannot tell where each partition stopped.
   *
   * @throws TooManyStreamsException when {@code maxStreams} are open
   */
  public void openView(
      String viewName, @Nullable String lastEventId, CallerContext caller, ChangeSink sink) {
    ResolvedView<?, ?, ?> view = this.queries.view(viewName);
    StreamSlots.Slot slot = this.slots.take(viewName);
    ViewStream stream = new ViewStream(sink, slot::release);
    this.views.add(stream);
    try {
      if (lastEventId != null) {
        try {
          stream.send(
              new ChangeEvent(
                  ChangeEvent.Kind.SKIPPED,
                  "{\"reason\":\"a view's stream starts from now; follow a key's stream to go"
                      + " on after an event\"}",
                  null));
        } catch (IOException ex) {
          stream.close();
          return;
        }
      }
      String storeTopic = view.changelogTopic(this.applicationId);
      ChangeDecoder decoder = new ChangeDecoder(view, storeTopic, this.mapper);
      Set<HostInfo> others = new LinkedHashSet<>();
      for (PartitionOwner owner : this.routing.owners(view)) {
        if (!this.routing.isLocal(owner)) {
          others.add(owner.host());
          continue;
        }
        AppliedOffset applied = this.positions.of(view.storeName(), owner.partition());
        if (applied == null) {
          continue;
        }
        int partition = owner.partition();
        ChangeStream part = stream(null, view.name(), partition, decoder, stream, () -> {});
        stream.add(part, applied);
        applied.changes().listen(part, applied.begun());
        part.start(List.of(), List.of(), applied.begun(), Integer.MAX_VALUE, null);
      }
      if (!caller.forwarded()) {
        for (HostInfo host : others) {
          this.upstream.relayView(view.name(), host, caller, stream.relayed());
        }
      }
    } catch (RuntimeException ex) {
      stream.close();
      throw ex;
    }
  }

  /**
   * A stream of {@code key}'s updates in {@code partition} of {@code viewName}, or of every key's
   * when {@code null}, into {@code sink}, which the heartbeats reach.
   */
  private ChangeStream stream(
      byte @Nullable [] key,
      String viewName,
      int partition,
      ChangeDecoder decoder,
      ChangeSink sink,
      Runnable onEnd) {
    ChangeStream stream =
        new ChangeStream(
            key,
            this.buffer,
            this.waiting,
            decoder::event,
            (change) -> this.ids.of(viewName, partition, change),
            sink,
            this.dispatcher,
            onEnd);
    this.live.add(stream);
    return stream;
  }

  /**
   * The event of the key's current value, or windows, read here: a read for a forwarded caller is
   * answered by a replica here or refused, never asked of another instance, so it is there at once.
   */
  private ChangeEvent current(
      ResolvedView<?, ?, ?> view,
      Object key,
      String rawKey,
      CallerContext caller,
      ChangeDecoder decoder,
      @Nullable String id) {
    CallerContext here = new CallerContext(true, caller.authorization(), false, null, false);
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("key", key);
    if (view.window() == null) {
      Routed<KeyAnswer> answer = Futures.now(this.queries.get(view.name(), rawKey, here));
      if (!(answer instanceof Routed.Local<KeyAnswer> local)) {
        throw refused(view, key, answer);
      }
      Object value = local.answer().value();
      if (value == null) {
        return new ChangeEvent(ChangeEvent.Kind.DELETED, decoder.json(data), id);
      }
      data.put("value", value);
      return new ChangeEvent(ChangeEvent.Kind.VALUE, decoder.json(data), id);
    }
    Routed<WindowsAnswer> answer =
        Futures.now(this.queries.windows(view.name(), rawKey, null, null, here));
    if (!(answer instanceof Routed.Local<WindowsAnswer> local)) {
      throw refused(view, key, answer);
    }
    data.put("windows", local.answer().windows());
    return new ChangeEvent(ChangeEvent.Kind.WINDOWS, decoder.json(data), id);
  }

  private EventIds.Resume resume(ResolvedView<?, ?, ?> view, int partition, String lastEventId) {
    try {
      return this.ids.read(view.name(), partition, lastEventId);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(
          view.name(), "Last-Event-ID", String.valueOf(ex.getMessage()));
    }
  }

  private <K> K parse(ResolvedView<K, ?, ?> view, String rawKey) {
    try {
      return this.keys.parse(view.definition().keyType(), rawKey);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(
          view.name(), "key", "Key " + ex.getMessage() + " as view '" + view.name() + "' needs");
    }
  }

  private static RuntimeException refused(
      ResolvedView<?, ?, ?> view, Object key, Routed<?> answer) {
    if (answer instanceof Routed.Refused<?> refused) {
      return refused.refusal().toException();
    }
    return notNow(view, key, null, "its owner changed while the stream opened");
  }

  private static RuntimeException notNow(
      ResolvedView<?, ?, ?> view, Object key, @Nullable Integer partition, String why) {
    return new Refusal(
            Refusal.Reason.UNAVAILABLE,
            view.name(),
            key,
            partition,
            "The changes of this key of view '" + view.name() + "' cannot be streamed now: " + why,
            Refusal.REBALANCE_RETRY)
        .toException();
  }

  /** Stops the heartbeats. */
  @Override
  public void close() {
    this.heartbeats.cancel(false);
  }
}
