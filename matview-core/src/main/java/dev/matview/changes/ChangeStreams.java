package dev.matview.changes;

import static dev.matview.changes.KeyStreamStart.notNow;

import dev.matview.observation.MatviewObservations;
import dev.matview.position.PositionTokens;
import dev.matview.query.KeyParser;
import dev.matview.query.ViewQueryService;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.Routing;
import dev.matview.replica.AppliedOffset;
import dev.matview.replica.StorePositions;
import dev.matview.topology.ResolvedView;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * Opens change streams of views' keys: from this instance's store partition when it runs the key's
 * active replica, else relayed from the instance that does ({@link UpstreamChanges}). A stream
 * starts with the key's current value, or, with a {@code Last-Event-ID} its partition's feed still
 * holds the updates after, with those; at most {@code maxStreams} are open at once.
 */
public final class ChangeStreams implements AutoCloseable {

  private final ViewQueryService queries;

  private final Routing routing;

  private final StorePositions positions;

  private final KeyParser keys;

  private final UpstreamChanges upstream;

  private final String applicationId;

  private final StreamSlots slots;

  private final LiveStreams live;

  private final KeyStreamStart starts;

  private final ViewChangeStreams views;

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
    EventIds ids = new EventIds(tokens);
    this.upstream = upstream;
    this.applicationId = queries.applicationId();
    this.slots = new StreamSlots(maxStreams);
    this.live = new LiveStreams(ids, this.applicationId, mapper, buffer, heartbeat, timer, workers);
    this.starts = new KeyStreamStart(queries, ids, workers);
    this.views = new ViewChangeStreams(routing, positions, upstream, this.live);
  }

  /** How many change streams this instance serves now, relayed ones included. */
  public int openStreams() {
    return this.slots.taken();
  }

  /** How many updates wait in this instance's streams for clients that have not read them yet. */
  public int waitingEvents() {
    return this.live.waitingEvents();
  }

  /**
   * Opens the stream of {@code rawKey}'s changes in {@code viewName} into {@code sink}, going on
   * after {@code lastEventId} when given; throws {@link TooManyStreamsException} when {@code
   * maxStreams} are open, {@link InvalidQueryException} when the key or the id cannot be read, and
   * {@link dev.matview.query.answer.ViewUnavailableException} when no instance can serve it now.
   */
  public void openKey(
      String viewName,
      String rawKey,
      @Nullable String lastEventId,
      CallerContext caller,
      ChangeSink sink) {
    ResolvedView<?, ?, ?> view = this.queries.view(viewName);
    StreamSlots.Slot slot = this.slots.take(viewName, observation(viewName, "key", caller));
    try {
      openKeyOf(view, rawKey, lastEventId, caller.withObservation(slot.observation()), sink, slot);
    } catch (RuntimeException ex) {
      slot.refused(ex);
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
        (lastEventId != null) ? this.starts.resume(view, partition, lastEventId) : null;
    if (!this.routing.isLocal(replicas.active())) {
      if (caller.forwarded()) {
        throw notNow(view, key, partition, "its partition moved to another instance");
      }
      slot.opened("relayed");
      this.upstream.relay(
          view.name(), rawKey, replicas.active(), lastEventId, caller, sink, slot::release);
      return;
    }
    AppliedOffset applied = this.positions.of(view.storeName(), partition);
    if (applied == null) {
      throw notNow(view, key, partition, "its store partition here is not open yet");
    }
    ViewEvents events = this.live.events(view);
    byte[] keyBytes =
        view.keySerde().serializer().serialize(view.changelogTopic(this.applicationId), key);
    ChangeStream[] self = new ChangeStream[1];
    ChangeStream stream =
        this.live.open(
            keyBytes,
            events,
            partition,
            sink,
            () -> {
              applied.changes().stop(self[0]);
              slot.release();
            });
    self[0] = stream;
    sink.whenGone(stream::end);
    applied.changes().listen(stream, applied.begun());
    try {
      this.starts.start(
          view,
          key,
          rawKey,
          lastEventId,
          caller,
          resume,
          applied,
          events.decoder(),
          stream,
          () -> this.live.abandon(stream));
    } catch (RuntimeException ex) {
      this.live.abandon(stream);
      throw ex;
    }
    slot.opened("local");
  }

  /**
   * Opens the stream of every key's changes in {@code viewName} into {@code sink}: this instance's
   * partitions, and, unless another instance asked, every other instance's relayed. It starts with
   * the changes from now on; a {@code Last-Event-ID} is answered with a skipped event, since a
   * view's stream cannot tell where each partition stopped; throws {@link TooManyStreamsException}
   * when {@code maxStreams} are open.
   */
  public void openView(
      String viewName, @Nullable String lastEventId, CallerContext caller, ChangeSink sink) {
    ResolvedView<?, ?, ?> view = this.queries.view(viewName);
    StreamSlots.Slot slot = this.slots.take(viewName, observation(viewName, "view", caller));
    this.views.open(view, lastEventId, caller, sink, slot);
  }

  /**
   * The observation of a stream of {@code scope} of {@code viewName}, opened for {@code caller}.
   */
  private static Observation observation(String viewName, String scope, CallerContext caller) {
    return MatviewObservations.start(
        caller.observation(),
        MatviewObservations.CHANGE_STREAM,
        viewName,
        scope,
        KeyValues.empty());
  }

  private <K> K parse(ResolvedView<K, ?, ?> view, String rawKey) {
    try {
      return this.keys.parse(view.definition().keyType(), rawKey);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(
          view.name(), "key", "Key " + ex.getMessage() + " as view '" + view.name() + "' needs");
    }
  }

  /** Stops the heartbeats. */
  @Override
  public void close() {
    this.live.close();
  }
}
