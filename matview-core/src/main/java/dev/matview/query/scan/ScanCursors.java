package dev.matview.query.scan;

import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.topology.ResolvedView;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where a scan page starts and where the next one will: cursors and positions read from their
 * tokens and checked against the view and the bounds asked, with a 400 that says what is wrong.
 */
public final class ScanCursors {

  private final CursorCodec codec;

  public ScanCursors(CursorCodec codec) {
    this.codec = codec;
  }

  /** The token of the cursor that continues a scan of {@code view}. */
  public String encode(ResolvedView<?, ?, ?> view, ScanCursor cursor) {
    return this.codec.encode(view.name(), cursor);
  }

  /** Where a scan starts: at the checked cursor, or at the first partition. */
  public ScanCursor start(
      ResolvedView<?, ?, ?> view,
      List<PartitionOwner> owners,
      String bounds,
      @Nullable String encodedCursor,
      long rangeFrom,
      long rangeTo) {
    return encodedCursor != null
        ? cursor(view, encodedCursor, owners.size(), bounds.hashCode())
        : new ScanCursor(0, owners.size(), bounds.hashCode(), rangeFrom, rangeTo, null);
  }

  /** Where a scan resumes right after {@code after}, in {@code partition}. */
  public ScanCursor resume(
      List<PartitionOwner> owners,
      String bounds,
      int partition,
      ScanPosition after,
      long rangeFrom,
      long rangeTo) {
    return new ScanCursor(partition, owners.size(), bounds.hashCode(), rangeFrom, rangeTo, after);
  }

  public static @Nullable ScanCursor next(
      ScanCursor cursor, int partition, int partitionCount, Slice<?> slice) {
    if (!slice.exhausted()) {
      return cursor.moveTo(partition, slice.last());
    }
    return partition + 1 < partitionCount ? cursor.moveTo(partition + 1, null) : null;
  }

  private ScanCursor cursor(
      ResolvedView<?, ?, ?> view, String encoded, int partitionCount, int boundsHash) {
    ScanCursor cursor;
    try {
      cursor = this.codec.decode(view.name(), encoded);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(view.name(), "cursor", "Invalid cursor: " + ex.getMessage());
    }
    if (cursor.partitionCount() != partitionCount) {
      throw staleCursor(view, cursor, partitionCount);
    }
    if (cursor.boundsHash() != boundsHash) {
      throw new InvalidQueryException(
          view.name(),
          "cursor",
          "The cursor belongs to a scan with other bounds; pass the same from and to as the first"
              + " page, or start again without a cursor");
    }
    if (cursor.partition() < 0 || cursor.partition() >= partitionCount) {
      throw new InvalidQueryException(view.name(), "cursor", "The cursor names no partition");
    }
    return cursor;
  }

  private static InvalidQueryException staleCursor(
      ResolvedView<?, ?, ?> view, ScanCursor cursor, int partitionCount) {
    return new InvalidQueryException(
        view.name(),
        "cursor",
        "The cursor is stale: view '"
            + view.name()
            + "' had "
            + cursor.partitionCount()
            + " partitions when it was issued and has "
            + partitionCount
            + " now; start the scan again without a cursor");
  }

  public @Nullable ScanPosition position(ResolvedView<?, ?, ?> view, @Nullable String after) {
    if (after == null || after.isEmpty()) {
      return null;
    }
    try {
      return this.codec.decodePosition(view.name(), after);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(view.name(), "after", "Invalid position: " + ex.getMessage());
    }
  }
}
