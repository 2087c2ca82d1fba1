package dev.matview.changes;

import dev.matview.position.Isolation;
import dev.matview.position.ReadBound;
import dev.matview.query.ViewQueryService;
import dev.matview.query.answer.Futures;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.WindowsAnswer;
import dev.matview.query.routing.CallerContext;
import dev.matview.replica.AppliedOffset;
import dev.matview.replica.StoreChange;
import dev.matview.topology.ResolvedView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * What a key's change stream starts with: the updates after its {@code Last-Event-ID} while the
 * partition's feed still holds them, else the key's current value (or windows), read here, after an
 * event that says the updates after that id are gone.
 */
final class KeyStreamStart {

  /**
   * How many times a stream's first value is read until no record of its partition was being
   * processed meanwhile, so that no update is both in that value and sent after it; under a load
   * that never pauses so long, the last read is taken as it is.
   */
  private static final int SNAPSHOT_ATTEMPTS = 100;

  private final ViewQueryService queries;

  private final EventIds ids;

  private final Executor workers;

  /**
   * Starts that read current values with {@code queries}, with the event ids of {@code ids}, and
   * read a value again on {@code workers}.
   */
  KeyStreamStart(ViewQueryService queries, EventIds ids, Executor workers) {
    this.queries = queries;
    this.ids = ids;
    this.workers = workers;
  }

  /**
   * Where {@code lastEventId} says a stream of {@code partition} of {@code view} stopped; throws
   * {@link InvalidQueryException} when it is not an id of that view's events.
   */
  EventIds.Resume resume(ResolvedView<?, ?, ?> view, int partition, String lastEventId) {
    try {
      return this.ids.read(view.name(), partition, lastEventId);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(
          view.name(), "Last-Event-ID", String.valueOf(ex.getMessage()));
    }
  }

  /**
   * Starts {@code stream} of {@code key}: after {@code resume} when the partition's feed still
   * holds the updates after it, else with the key's current value. A value read while a record of
   * its partition was being processed is read again on a worker, so the caller never waits for the
   * stream thread; a later read the instance refuses ends the stream, {@code abandon} told. The
   * refusal of the first read, before the stream has sent anything, is thrown.
   */
  void start(
      ResolvedView<?, ?, ?> view,
      Object key,
      String rawKey,
      @Nullable String lastEventId,
      CallerContext caller,
      EventIds.@Nullable Resume resume,
      AppliedOffset applied,
      ChangeDecoder decoder,
      ChangeStream stream,
      Runnable abandon) {
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
    read(
        new Snapshot(view, key, rawKey, lastEventId, caller, applied, decoder, stream, abandon), 1);
  }

  /** What the reads of a key's current value that a stream starts with need. */
  private record Snapshot(
      ResolvedView<?, ?, ?> view,
      Object key,
      String rawKey,
      @Nullable String lastEventId,
      CallerContext caller,
      AppliedOffset applied,
      ChangeDecoder decoder,
      ChangeStream stream,
      Runnable abandon) {}

  /**
   * Reads the value; starts the stream with it when no record of the partition was processed
   * meanwhile, or at the last attempt, else reads again on a worker (at once when none is free).
   */
  private void read(Snapshot snapshot, int attempt) {
    AppliedOffset applied = snapshot.applied();
    long begun = applied.begun();
    long from = applied.applied();
    ChangeEvent value =
        current(
            snapshot,
            this.ids.of(snapshot.view().name(), applied.partition(), from, Integer.MAX_VALUE));
    if ((begun == from && applied.begun() == begun) || attempt >= SNAPSHOT_ATTEMPTS) {
      snapshot.stream()
          .start(first(snapshot, value), List.of(), from, Integer.MAX_VALUE, value.id());
      return;
    }
    try {
      this.workers.execute(() -> readAgain(snapshot, attempt + 1));
    } catch (RejectedExecutionException ex) {
      snapshot.stream()
          .start(first(snapshot, value), List.of(), from, Integer.MAX_VALUE, value.id());
    }
  }

  private void readAgain(Snapshot snapshot, int attempt) {
    try {
      read(snapshot, attempt);
    } catch (RuntimeException ex) {
      snapshot.abandon().run();
    }
  }

  private static List<ChangeEvent> first(Snapshot snapshot, ChangeEvent value) {
    if (snapshot.lastEventId() == null) {
      return List.of(value);
    }
    ChangeEvent skipped =
        new ChangeEvent(
            ChangeEvent.Kind.SKIPPED,
            snapshot
                .decoder()
                .json(
                    Map.of(
                        "reason",
                        "this instance no longer holds the updates after Last-Event-ID; the stream"
                            + " starts again from the current value")),
            null);
    return List.of(skipped, value);
  }

  /**
   * The event of the key's current value, or windows, read here: a read for a forwarded caller is
   * answered by a replica here or refused, never asked of another instance, so it is there at once.
   * It reads the state as applied, committed or not, as the change feed it leads into follows it.
   */
  private ChangeEvent current(Snapshot snapshot, @Nullable String id) {
    ResolvedView<?, ?, ?> view = snapshot.view();
    Object key = snapshot.key();
    String rawKey = snapshot.rawKey();
    ChangeDecoder decoder = snapshot.decoder();
    CallerContext here =
        new CallerContext(true, snapshot.caller().authorization(), false, null, false)
            .withBound(ReadBound.NONE.withIsolation(Isolation.UNCOMMITTED))
            .withObservation(snapshot.caller().observation());
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

  private static RuntimeException refused(
      ResolvedView<?, ?, ?> view, Object key, Routed<?> answer) {
    if (answer instanceof Routed.Refused<?> refused) {
      return refused.refusal().toException();
    }
    return notNow(view, key, null, "its owner changed while the stream opened");
  }

  /** The refusal of a stream of {@code key} that cannot start now, for {@code why}. */
  static RuntimeException notNow(
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
}
