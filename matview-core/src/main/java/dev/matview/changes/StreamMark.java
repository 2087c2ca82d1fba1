package dev.matview.changes;

import dev.matview.replica.StoreChange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * How far a change stream's client has been written: the update written last and its id, which the
 * stream's last event names to resume with; only the updates after it are written, each as its
 * event with its id.
 */
final class StreamMark {

  private final Function<StoreChange, ChangeEvent> events;

  private long offset = -1;

  private int sequence = Integer.MAX_VALUE;

  private @Nullable String id;

  /** A mark whose updates become {@code events}, each with its id. */
  StreamMark(Function<StoreChange, ChangeEvent> events) {
    this.events = events;
  }

  /** Puts the mark right after the update at {@code offset} and {@code sequence}, of {@code id}. */
  void set(long offset, int sequence, @Nullable String id) {
    this.offset = offset;
    this.sequence = sequence;
    this.id = id;
  }

  /** The id of the update written last, or {@code null}. */
  @Nullable String id() {
    return this.id;
  }

  /**
   * Writes to {@code sink} the events of those of {@code changes} after the mark, with one flush,
   * and moves the mark past them once they are written.
   */
  void write(List<StoreChange> changes, ChangeSink sink) throws IOException {
    List<ChangeEvent> written = new ArrayList<>(changes.size());
    long lastOffset = this.offset;
    int lastSequence = this.sequence;
    String lastId = this.id;
    for (StoreChange change : changes) {
      if (change.isAfter(lastOffset, lastSequence)) {
        ChangeEvent event = this.events.apply(change);
        lastId = event.id();
        written.add(event);
        lastOffset = change.offset();
        lastSequence = change.sequence();
      }
    }
    if (written.isEmpty()) {
      return;
    }
    sink.send(written);
    set(lastOffset, lastSequence, lastId);
  }
}
