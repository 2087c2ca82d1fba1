package dev.matview.changes;

import dev.matview.position.PositionTokenException;
import dev.matview.position.PositionTokens;
import dev.matview.position.ViewPosition;
import dev.matview.replica.StoreChange;
import org.jspecify.annotations.Nullable;

/**
 * The ids of change events: the position token of the update's partition and offset, a dot, and the
 * update's place among those of one record, so that a stream that sends one back as {@code
 * Last-Event-ID} goes on right after it.
 */
final class EventIds {

  private final PositionTokens tokens;

  EventIds(PositionTokens tokens) {
    this.tokens = tokens;
  }

  /** The id of {@code change} of {@code view}'s {@code partition}, or none without a secret. */
  @Nullable String of(String view, int partition, StoreChange change) {
    return of(view, partition, change.offset(), change.sequence());
  }

  /** The id of the update at {@code offset} and {@code sequence} of a partition. */
  @Nullable String of(String view, int partition, long offset, int sequence) {
    if (offset < 0) {
      return null;
    }
    String token = this.tokens.write(ViewPosition.of(view, partition, offset));
    return (token != null) ? token + "." + sequence : null;
  }

  /**
   * Where {@code id} says a stream of {@code partition} of {@code view} stopped; throws {@link
   * PositionTokenException} when it is not an id of that view.
   */
  Resume read(String view, int partition, String id) {
    int dot = id.lastIndexOf('.');
    if (dot <= 0) {
      throw new IllegalArgumentException(
          "Last-Event-ID '" + abbreviated(id) + "' is not an id this view's events carry");
    }
    int sequence = sequence(id, id.substring(dot + 1));
    long offset = this.tokens.read(view, id.substring(0, dot)).offset(partition);
    return new Resume(offset, sequence);
  }

  /**
   * The update's place that an id ends with: digits only, as ids are written, never negative (a
   * negative place would resume before the updates it names, or skip them).
   */
  private static int sequence(String id, String written) {
    boolean digits =
        !written.isEmpty()
            && written.length() <= 10
            && written.chars().allMatch((c) -> c >= '0' && c <= '9');
    if (digits && Long.parseLong(written) <= Integer.MAX_VALUE) {
      return Integer.parseInt(written);
    }
    throw new IllegalArgumentException(
        "Last-Event-ID '"
            + abbreviated(id)
            + "' is not an id this view's events carry: it ends with a dot and the update's place,"
            + " a whole number from 0");
  }

  private static String abbreviated(String id) {
    return (id.length() > 40) ? id.substring(0, 40) + "..." : id;
  }

  /**
   * Where a stream stopped: right after the update at {@code offset} (-1 when the id names another
   * partition) and {@code sequence}, its place among those of its record.
   */
  record Resume(long offset, int sequence) {}
}
