package dev.matview.query;

import dev.matview.query.answer.Futures;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ScanPage;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.query.scan.ScanCursor;
import dev.matview.query.scan.ScanCursors;
import dev.matview.query.scan.ScanDeadline;
import dev.matview.query.scan.ScanRead;
import dev.matview.query.scan.ScanSlices;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Reads the pages of scans: each page walks the partitions in order from its cursor and asks each
 * owner for its slice, until the page is full or the view ends, within one deadline for the page.
 */
final class ScanPages {

  private final ScanSlices slices;

  private final ScanCursors cursors;

  private final ScanBounds bounds;

  private final Duration timeout;

  private final Clock clock;

  ScanPages(
      ScanSlices slices, ScanCursors cursors, ScanBounds bounds, Duration timeout, Clock clock) {
    this.slices = slices;
    this.cursors = cursors;
    this.bounds = bounds;
    this.timeout = timeout;
    this.clock = clock;
  }

  /** A page of up to {@code limit} items of {@code scan} from {@code cursor} on, or why not. */
  <T> CompletableFuture<Routed<ScanPage<T>>> read(
      ScanRead<T> scan, List<PartitionOwner> owners, ScanCursor cursor, int limit) {
    this.bounds.limit(scan.view(), limit);
    ScanDeadline deadline =
        ScanDeadline.startingNow(this.clock, scan.caller().bound().waited(this.timeout));
    return new PageRead<>(scan, owners, cursor, limit, deadline).from(cursor.partition());
  }

  /** One page of a scan, read partition after partition until it is full or the view ends. */
  private final class PageRead<T> {

    private final ScanRead<T> scan;

    private final List<PartitionOwner> owners;

    private final ScanCursor cursor;

    private final int limit;

    private final ScanDeadline deadline;

    private final MergedPosition position;

    private final List<T> items = new ArrayList<>();

    PageRead(
        ScanRead<T> scan,
        List<PartitionOwner> owners,
        ScanCursor cursor,
        int limit,
        ScanDeadline deadline) {
      this.scan = scan;
      this.owners = owners;
      this.cursor = cursor;
      this.limit = limit;
      this.deadline = deadline;
      this.position = new MergedPosition(scan.view().name(), null);
    }

    /** The page, read from partition {@code first} on. */
    CompletableFuture<Routed<ScanPage<T>>> from(int first) {
      for (int partition = first; partition < this.owners.size(); partition++) {
        ScanPosition after = partition == this.cursor.partition() ? this.cursor.after() : null;
        PartitionOwner owner = this.owners.get(partition);
        Duration remaining = this.deadline.remaining();
        if (remaining == null) {
          return CompletableFuture.completedFuture(
              new Routed.Refused<>(this.deadline.outOfTime(this.scan.view(), owner)));
        }
        CompletableFuture<Routed<Slice<T>>> read =
            ScanPages.this.slices.read(
                this.scan, owner, after, this.limit - this.items.size(), remaining);
        if (!read.isDone()) {
          int waited = partition;
          return read.thenCompose(
              (slice) -> {
                @Nullable Routed<ScanPage<T>> page = add(waited, slice);
                return (page != null) ? CompletableFuture.completedFuture(page) : from(waited + 1);
              });
        }
        @Nullable Routed<ScanPage<T>> page = add(partition, Futures.now(read));
        if (page != null) {
          return CompletableFuture.completedFuture(page);
        }
      }
      return CompletableFuture.completedFuture(
          new Routed.Local<>(new ScanPage<>(this.items, null), this.position.merged()));
    }

    /** Adds {@code read} to the page: the page when full, what to pass on, else {@code null}. */
    private @Nullable Routed<ScanPage<T>> add(int partition, Routed<Slice<T>> read) {
      if (!(read instanceof Routed.Local<Slice<T>> here)) {
        return Routed.passedOn(read);
      }
      Slice<T> slice = here.answer();
      this.position.add(here);
      this.items.addAll(slice.items());
      if (this.items.size() < this.limit) {
        return null;
      }
      ScanCursor next = ScanCursors.next(this.cursor, partition, this.owners.size(), slice);
      return new Routed.Local<>(
          new ScanPage<>(
              this.items,
              next != null ? ScanPages.this.cursors.encode(this.scan.view(), next) : null),
          this.position.merged());
    }
  }
}
