package dev.matview.query.local;

import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.WindowItem;
import dev.matview.view.ViewWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.LongFunction;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.jspecify.annotations.Nullable;

/**
 * One page of the windows of a partition, read from its cursor on and no further than the page.
 *
 * <p>Kafka Streams answers a key range of a window or session store segment after segment, each
 * segment in stored order, so one iterator over the range is not in scan order. This opens one
 * iterator per segment, each from where the previous segment ends, and merges their heads: a page
 * reads its own items and one more per segment, however many windows follow it.
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

  /**
   * A page of the windows whose start lies in [from, to] and that come after {@code after}, of a
   * store whose segments each span {@code intervalMillis}.
   */
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
   * Up to {@code limit} windows in scan order; {@code openFrom} opens an iterator over the windows
   * from the cursor's key on whose segment time (a window's start, a session's end) is at least the
   * given epoch millisecond.
   */
  Slice<WindowItem> read(LongFunction<KeyValueIterator<Windowed<K>, Object>> openFrom, int limit) {
    List<Segment<K>> segments = new ArrayList<>();
    try {
      PriorityQueue<Segment<?>> heads = new PriorityQueue<>(BY_HEAD);
      long segmentFrom = this.from.toEpochMilli();
      while (true) {
        Segment<K> segment = new Segment<>(this, openFrom.apply(segmentFrom));
        segments.add(segment);
        if (segment.advance()) {
          heads.add(segment);
        }
        if (!segment.sawAny()) {
          break;
        }
        segmentFrom = segment.endMillis();
        if (this.window.type() != ViewWindow.Type.SESSION && segmentFrom > this.to.toEpochMilli()) {
          break;
        }
      }
      List<WindowItem> items = new ArrayList<>(Math.min(limit, 1024));
      ScanPosition last = null;
      while (items.size() < limit && !heads.isEmpty()) {
        Segment<?> smallest = heads.poll();
        items.add(smallest.head().item());
        last = smallest.head().position();
        if (smallest.advance()) {
          heads.add(smallest);
        }
      }
      return new Slice<>(items, last, heads.isEmpty());
    } finally {
      segments.forEach(Segment::close);
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

  /** A window and where it stands in scan order. */
  private record Positioned(ScanPosition position, WindowItem item) {}

  /** The items of one segment, read one ahead; it ends where the next segment's items begin. */
  private static final class Segment<K> {

    private final WindowPage<K> page;

    private final KeyValueIterator<Windowed<K>, Object> iterator;

    private long endMillis = Long.MAX_VALUE;

    private boolean sawAny;

    private @Nullable Positioned head;

    Segment(WindowPage<K> page, KeyValueIterator<Windowed<K>, Object> iterator) {
      this.page = page;
      this.iterator = iterator;
    }

    /** Moves to the segment's next item of the page's range; false when the segment has no more. */
    boolean advance() {
      this.head = null;
      while (this.iterator.hasNext()) {
        KeyValue<Windowed<K>, Object> next = this.iterator.next();
        long time = this.page.segmentTime(next.key);
        if (!this.sawAny) {
          this.sawAny = true;
          long interval = this.page.intervalMillis;
          this.endMillis = Math.addExact(Math.floorDiv(time, interval), 1) * interval;
        } else if (time >= this.endMillis) {
          return false;
        }
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

    /** The first segment time after this segment, where the next one starts. */
    long endMillis() {
      return this.endMillis;
    }

    void close() {
      this.iterator.close();
    }
  }
}
