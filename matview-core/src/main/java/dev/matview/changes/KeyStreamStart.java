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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  /** Starts that read current values with {@code queries}, with the event ids of {@code ids}. */
  KeyStreamStart(ViewQueryService queries, EventIds ids) {
    this.queries = queries;
    this.ids = ids;
  }

  /**
   * Where {@code lastEventId} says a stream of {@code partition} of {@code view} stopped.
   *
   * @throws InvalidQueryException when it is not an id of that view's events
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
   * holds the updates after it, else with the key's current value.
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
   * The event of the key's current value, or windows, read here: a read for a forwarded caller is
   * answered by a replica here or refused, never asked of another instance, so it is there at once.
   * It reads the state as applied, committed or not, as the change feed it leads into follows it.
   */
  private ChangeEvent current(
      ResolvedView<?, ?, ?> view,
      Object key,
      String rawKey,
      CallerContext caller,
      ChangeDecoder decoder,
      @Nullable String id) {
    CallerContext here =
        new CallerContext(true, caller.authorization(), false, null, false)
            .withBound(ReadBound.NONE.withIsolation(Isolation.UNCOMMITTED));
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
