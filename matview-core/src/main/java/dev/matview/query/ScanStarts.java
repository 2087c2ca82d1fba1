package dev.matview.query;

import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.routing.Routing;
import dev.matview.query.scan.ScanCursor;
import dev.matview.query.scan.ScanCursors;
import dev.matview.topology.ResolvedView;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where a streamed scan starts: at its start, at a cursor, or right after the last item a client
 * received ({@code afterKey}, and {@code afterStart} for windows), which a client may name instead
 * of a cursor.
 */
final class ScanStarts {

  private final Routing routing;

  private final ScanBounds bounds;

  private final ScanCursors cursors;

  ScanStarts(Routing routing, ScanBounds bounds, ScanCursors cursors) {
    this.routing = routing;
    this.bounds = bounds;
    this.cursors = cursors;
  }

  /** Where a scan of keys in [{@code fromKey}, {@code toKey}] starts: the cursor or afterKey. */
  <K> ScanCursor keys(
      ResolvedView<K, ?, ?> view,
      List<PartitionOwner> owners,
      String scanBounds,
      @Nullable String cursor,
      @Nullable String afterKey,
      @Nullable K fromKey,
      @Nullable K toKey) {
    requireOneResumePoint(view, cursor, afterKey);
    K after = this.bounds.key(view, "afterKey", afterKey);
    if (after == null) {
      return this.cursors.start(view, owners, scanBounds, cursor, 0, 0);
    }
    ScanBounds.requireWithin(view, String.valueOf(afterKey), after, fromKey, toKey);
    return resumeAfter(view, owners, scanBounds, after, 0, 0, 0);
  }

  /** Where a scan of windows starts: the cursor, or the window afterKey at afterStart. */
  <K> ScanCursor windows(
      ResolvedView<K, ?, ?> view,
      List<PartitionOwner> owners,
      String scanBounds,
      @Nullable String cursor,
      @Nullable String afterKey,
      @Nullable Instant afterStart,
      long rangeFrom,
      long rangeTo) {
    requireOneResumePoint(view, cursor, afterKey != null ? afterKey : afterStart);
    K after = this.bounds.key(view, "afterKey", afterKey);
    if ((after == null) != (afterStart == null)) {
      throw new InvalidQueryException(
          view.name(),
          after == null ? "afterKey" : "afterStart",
          "Resume a window scan with both afterKey and afterStart: the key and the start of the"
              + " last window received");
    }
    if (after == null || afterStart == null) {
      return this.cursors.start(view, owners, scanBounds, cursor, rangeFrom, rangeTo);
    }
    long windowStart = TimeRange.storable(view.name(), "afterStart", afterStart).toEpochMilli();
    return resumeAfter(view, owners, scanBounds, after, windowStart, rangeFrom, rangeTo);
  }

  /** Where a scan resumes right after {@code after}: in its partition, after its stored bytes. */
  private <K> ScanCursor resumeAfter(
      ResolvedView<K, ?, ?> view,
      List<PartitionOwner> owners,
      String scanBounds,
      K after,
      long windowStart,
      long rangeFrom,
      long rangeTo) {
    int partition = this.routing.ownerOfKey(view, after).partition();
    byte[] key = view.keySerde().serializer().serialize(view.storeName(), after);
    return this.cursors.resume(
        owners, scanBounds, partition, new ScanPosition(key, windowStart), rangeFrom, rangeTo);
  }

  private static void requireOneResumePoint(
      ResolvedView<?, ?, ?> view, @Nullable String cursor, @Nullable Object after) {
    if (cursor != null && !cursor.isEmpty() && after != null) {
      throw new InvalidQueryException(
          view.name(),
          "cursor",
          "Resume a scan either at a cursor or after a key, not both: leave out cursor or afterKey");
    }
  }
}
