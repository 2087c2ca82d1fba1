package dev.matview.query.local;

import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.WindowItem;
import dev.matview.topology.WindowSegments;
import dev.matview.view.ViewWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.jspecify.annotations.Nullable;

/**
 * One page of the windows of a partition, read from its cursor on and no further than the page.
 *
 * <p>Kafka Streams answers a key range of a window or session store segment after segment, each
 * segment in stored order, so one iterator over the range is not in scan order. This reads the
 * range one segment at a time and merges their heads: a page reads its own items and one more per
 * segment, however many windows follow it.
 *
 * <p>A time-windowed segment is read with its time range within that segment: Kafka Streams 4.1's
 * record cache answers a key range with an open end once per segment its time range spans, each
 * time from the first cached window on, so a read across segments repeats every cached window.
 * Within one segment it answers each window once, cached or stored. A read across segments is only
 * asked for its first window, which lies in the first segment that holds one: where the next
 * segment to read is when the segments between hold nothing.
 *
 * @param <K> the view's key type
 */
final class WindowPage<K> {

  private static final Comparator<Segment<?>> BY_HEAD =
      (left, right) -> {
        ScanPosition other = right.head().position();
        return left.head().position().compareTo(other.key(), other.windowStart());
      };

  private final Serializer<K> keys;

  private final String storeName;

  private final ViewWindow window;

  private final long intervalMillis;

  private final Instant from;

  private final Instant to;

  private final @Nullable ScanPosition after;

  /** A page of the windows starting in [from, to] after {@code after}. */
  WindowPage(
      Serializer<K> keys,
      String storeName,
      ViewWindow window,
      long intervalMillis,
      Instant from,
      Instant to,
      @Nullable ScanPosition after) {
    this.keys = keys;
    this.storeName = storeName;
    this.window = window;
    this.intervalMillis = intervalMillis;
    this.from = from;
    this.to = to;
    this.after = after;
  }

  /**
   * Up to {@code limit} windows in scan order, read through {@code reads}, which opens the windows
   * from the cursor's key on whose segment time (a window's start, a session's end) lies in a
   * range.
   */
  Slice<WindowItem> read(SegmentReads<K> reads, int limit) {
    List<Segment<K>> segments = new ArrayList<>();
    try {
      PriorityQueue<Segment<?>> heads = new PriorityQueue<>(BY_HEAD);
      long last = lastSegmentTime();
      Long segmentFrom = this.from.toEpochMilli();
      while (segmentFrom != null && segmentFrom <= last) {
        long segmentEnd = segmentEnd(segmentFrom);
        Segment<K> segment =
            new Segment<>(
                this, reads.open(segmentFrom, Math.min(segmentEnd - 1, last)), segmentEnd);
        segments.add(segment);
        if (segment.advance()) {
          heads.add(segment);
        }
        segmentFrom = segment.sawAny() ? Long.valueOf(segmentEnd) : firstAfter(reads, segmentEnd);
      }
      List<WindowItem> items = new ArrayList<>(Math.min(limit, 1024));
      ScanPosition lastRead = null;
      while (items.size() < limit && !heads.isEmpty()) {
        Segment<?> smallest = heads.poll();
        items.add(smallest.head().item());
        lastRead = smallest.head().position();
        if (smallest.advance()) {
          heads.add(smallest);
        }
      }
      return new Slice<>(items, lastRead, heads.isEmpty());
    } finally {
      segments.forEach(Segment::close);
    }
  }

  /**
   * The latest segment time a window of the page can have: its end for a window, none for a
   * session, which may end any time after it starts.
   */
  private long lastSegmentTime() {
    long last =
        this.window.type() == ViewWindow.Type.SESSION ? Long.MAX_VALUE : this.to.toEpochMilli();
    return Math.min(last, WindowSegments.lastCacheReadable(this.window));
  }

  /** The first segment time after the segment of {@code time}, where the next segment starts. */
  private long segmentEnd(long time) {
    long interval = this.intervalMillis;
    return Math.addExact(Math.floorDiv(time, interval), 1) * interval;
  }

  /**
   * The start of the first segment after {@code time} that holds a window, or {@code null} when
   * none does: the segment of the first window read across segments, whose first window is in the
   * first segment that holds one, though not the earliest of that segment.
   */
  private @Nullable Long firstAfter(SegmentReads<K> reads, long time) {
    long last = lastSegmentTime();
    if (time > last) {
      return null;
    }
    try (KeyValueIterator<Windowed<K>, Object> following = reads.open(time, last)) {
      if (!following.hasNext()) {
        return null;
      }
      long interval = this.intervalMillis;
      return Math.max(time, Math.floorDiv(segmentTime(following.next().key), interval) * interval);
    }
  }

  private long segmentTime(Windowed<K> windowed) {
    return this.window.type() == ViewWindow.Type.SESSION
        ? windowed.window().end()
        : windowed.window().start();
  }

  private @Nullable Positioned positioned(KeyValue<Windowed<K>, Object> next) {
    Instant start = next.key.window().startTime();
    if (next.value == null || !LocalWindows.startsIn(start, this.from, this.to)) {
      return null;
    }
    byte[] keyBytes = this.keys.serialize(this.storeName, next.key.key());
    if (this.after != null && this.after.compareTo(keyBytes, start.toEpochMilli()) >= 0) {
      return null;
    }
    Instant end =
        this.window.type() == ViewWindow.Type.SESSION
            ? next.key.window().endTime()
            : start.plus(this.window.size());
    return new Positioned(
        new ScanPosition(keyBytes, start.toEpochMilli()),
        new WindowItem(next.key.key(), start, end, next.value));
  }

  /**
   * Opens the windows of a partition from the page's cursor key (or the first key) on whose segment
   * time lies in [segmentFrom, segmentTo] and that may start in the page's range, in stored order;
   * a session store, which cannot bound the end, may answer later sessions too.
   *
   * @param <K> the view's key type
   */
  @FunctionalInterface
  interface SegmentReads<K> {
    KeyValueIterator<Windowed<K>, Object> open(long segmentFrom, long segmentTo);
  }

  /** A window and where it stands in scan order. */
  private record Positioned(ScanPosition position, WindowItem item) {}

  /** The items of one segment, read one ahead; it ends where the next segment's items begin. */
  private static final class Segment<K> {

    private final WindowPage<K> page;

    private final KeyValueIterator<Windowed<K>, Object> iterator;

    private final long endMillis;

    private boolean sawAny;

    private @Nullable Positioned head;

    Segment(WindowPage<K> page, KeyValueIterator<Windowed<K>, Object> iterator, long endMillis) {
      this.page = page;
      this.iterator = iterator;
      this.endMillis = endMillis;
    }

    /** Moves to the segment's next item of the page's range; false when the segment has no more. */
    boolean advance() {
      this.head = null;
      while (this.iterator.hasNext()) {
        KeyValue<Windowed<K>, Object> next = this.iterator.next();
        if (this.page.segmentTime(next.key) >= this.endMillis) {
          return false;
        }
        this.sawAny = true;
        Positioned positioned = this.page.positioned(next);
        if (positioned != null) {
          this.head = positioned;
          return true;
        }
      }
      return false;
    }

    Positioned head() {
      Positioned current = this.head;
      if (current == null) {
        throw new IllegalStateException("The segment has no item at hand");
      }
      return current;
    }

    boolean sawAny() {
      return this.sawAny;
    }

    void close() {
      this.iterator.close();
    }
  }
}
