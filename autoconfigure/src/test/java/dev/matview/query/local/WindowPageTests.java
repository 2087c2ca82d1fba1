package dev.matview.query.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.WindowItem;
import dev.matview.topology.WindowSegments;
import dev.matview.view.ViewWindow;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pages through real RocksDB window and session stores of Kafka Streams' test driver whose windows
 * lie in several segments, where one iterator over the range is not in scan order.
 */
class WindowPageTests {

  private static final Instant DAY = Instant.parse("2026-01-01T00:00:00Z");

  private static final Duration RETENTION = Duration.ofDays(1);

  private static final String STORE = "counts";

  private static final Instant FROM = DAY;

  private static final Instant TO = DAY.plus(Duration.ofDays(2));

  @TempDir java.nio.file.Path stateDir;

  @Test
  void pagesOfTimeWindowsFollowScanOrderAcrossSegmentsAndReadLittleBeyondThePage() {
    ViewWindow window = ViewWindow.tumbling(Duration.ofHours(1)).withRetention(RETENTION);
    try (TopologyTestDriver driver =
        driverAcrossSegments(
            orders ->
                orders
                    .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofHours(1)))
                    .count(
                        Materialized.<String, Long, WindowStore<Bytes, byte[]>>as(STORE)
                            .withRetention(RETENTION)))) {
      WindowStore<String, Long> store = driver.getWindowStore(STORE);
      assertPagesInScanOrder(
          window,
          () -> cast(store.fetchAll(FROM, TO)),
          (fromKey, segmentFrom, segmentTo) ->
              cast(
                  store.fetch(
                      fromKey,
                      null,
                      Instant.ofEpochMilli(segmentFrom),
                      Instant.ofEpochMilli(segmentTo))));
    }
  }

  @Test
  void aPageAtTheLastInstantKafkaCanStoreIsEmpty() {
    ViewWindow window = ViewWindow.tumbling(Duration.ofHours(1)).withRetention(RETENTION);
    try (TopologyTestDriver driver =
        driverAcrossSegments(
            orders ->
                orders
                    .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofHours(1)))
                    .count(
                        Materialized.<String, Long, WindowStore<Bytes, byte[]>>as(STORE)
                            .withRetention(RETENTION)))) {
      WindowStore<String, Long> store = driver.getWindowStore(STORE);
      Instant last = Instant.ofEpochMilli(Long.MAX_VALUE);
      long interval = WindowSegments.interval(window).toMillis();
      for (Instant from : List.of(TO, last.minusMillis(interval), last)) {
        WindowPage<String> page =
            new WindowPage<>(new StringSerializer(), STORE, window, interval, from, last, null);
        Slice<WindowItem> slice =
            page.read(
                (segmentFrom, segmentTo) ->
                    cast(
                        store.fetch(
                            null,
                            null,
                            Instant.ofEpochMilli(segmentFrom),
                            Instant.ofEpochMilli(segmentTo))),
                4);
        assertThat(slice.items()).as("windows from %s", from).isEmpty();
        assertThat(slice.exhausted()).isTrue();
      }
    }
  }

  @Test
  void pagesOfSessionsFollowScanOrderAcrossSegments() {
    ViewWindow window = ViewWindow.session(Duration.ofMinutes(30)).withRetention(RETENTION);
    try (TopologyTestDriver driver =
        driverAcrossSegments(
            orders ->
                orders
                    .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMinutes(30)))
                    .count(
                        Materialized.<String, Long, SessionStore<Bytes, byte[]>>as(STORE)
                            .withRetention(RETENTION)))) {
      SessionStore<String, Long> store = driver.getSessionStore(STORE);
      long to = TO.toEpochMilli();
      assertPagesInScanOrder(
          window,
          () -> cast(store.findSessions(null, null, FROM.toEpochMilli(), to)),
          (fromKey, segmentFrom, segmentTo) ->
              cast(store.findSessions(fromKey, null, segmentFrom, to)));
    }
  }

  /** A test driver whose {@code aggregate} of the orders by key holds windows in three segments. */
  private TopologyTestDriver driverAcrossSegments(
      Consumer<KGroupedStream<String, String>> aggregate) {
    StreamsBuilder builder = new StreamsBuilder();
    aggregate.accept(
        builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String())).groupByKey());
    TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config());
    pipeAcrossSegments(driver);
    return driver;
  }

  @Test
  void positionsCompareAsTheKeyBytesFollowedByTheStart() {
    ScanPosition a = new ScanPosition(utf8("a"), 5);
    assertThat(a.compareTo(utf8("a"), 5)).isZero();
    assertThat(a.compareTo(utf8("a"), 6)).isNegative();
    assertThat(a.compareTo(utf8("b"), 0)).isNegative();
    assertThat(a.compareTo(utf8("ab"), 0)).isNegative();
    assertThat(new ScanPosition(utf8("ab"), 0).compareTo(utf8("a"), DAY.toEpochMilli()))
        .isPositive();
    assertThat(new ScanPosition(utf8("ab"), 0).compareTo(utf8("a"), Long.MAX_VALUE))
        .as("as stored, the start's first byte meets the longer key's second")
        .isNegative();
    assertThat(new ScanPosition(new byte[] {'a', 0}, 0).compareTo(utf8("a"), 0)).isPositive();
    assertThat(new ScanPosition(new byte[] {(byte) 0xff}, 0).compareTo(utf8("a"), 0)).isPositive();
  }

  /**
   * Windows of keys whose order differs from their segments' order: "z" early, "a" late, so that
   * one iterator over the range returns "z" before "a".
   */
  private static void pipeAcrossSegments(TopologyTestDriver driver) {
    TestInputTopic<String, String> orders =
        driver.createInputTopic(
            "orders", new StringSerializer(), new StringSerializer(), DAY, Duration.ZERO);
    String[] keys = {"z", "m", "a", "q", "b", "y", "c"};
    for (int hour = 2; hour <= 25; hour++) {
      for (int i = 0; i < keys.length; i++) {
        if ((hour + i) % 3 == 0) {
          orders.pipeInput(keys[i], "order", DAY.plus(Duration.ofHours(hour)));
        }
      }
    }
  }

  /**
   * Pages through the windows that {@code all} holds. Not through {@code opener} from the start:
   * Kafka Streams 4.1.2's window store answers a key range open at both ends once per segment in
   * it, repeating every window, which the page never asks of more than one segment.
   */
  private static void assertPagesInScanOrder(
      ViewWindow window, Supplier<KeyValueIterator<Windowed<String>, Object>> all, Opener opener) {
    StringSerializer keys = new StringSerializer();
    long interval = WindowSegments.interval(window).toMillis();
    assertThat(interval).isEqualTo(Duration.ofHours(12).toMillis());
    List<Stored> everything = new ArrayList<>();
    try (KeyValueIterator<Windowed<String>, Object> windows = all.get()) {
      windows.forEachRemaining(
          next ->
              everything.add(
                  new Stored(
                      keys.serialize(STORE, next.key.key()), next.key.window().start(), next)));
    }
    List<Stored> inScanOrder = new ArrayList<>(everything);
    inScanOrder.sort(Stored.SCAN_ORDER);
    assertThat(everything)
        .as("one iterator over several segments is not in scan order")
        .isNotEqualTo(inScanOrder);
    long segments =
        everything.stream()
            .mapToLong(stored -> segmentTime(window, stored.entry().key) / interval)
            .distinct()
            .count();
    assertThat(segments).isGreaterThanOrEqualTo(3);

    List<String> expected =
        inScanOrder.stream()
            .map(s -> s.entry().key.key() + "@" + s.entry().key.window().startTime())
            .toList();
    assertThat(paged(window, interval, FROM, everything, segments, opener))
        .as("pages from the first segment that holds a window")
        .containsExactlyElementsOf(expected);
    assertThat(
            paged(window, interval, FROM.minus(Duration.ofDays(2)), everything, segments, opener))
        .as("pages from four segments before it, whose first window read is not its earliest")
        .containsExactlyElementsOf(expected);
  }

  /** Every window from {@code from} to {@link #TO}, read in pages of 4, as key@start. */
  private static List<String> paged(
      ViewWindow window,
      long interval,
      Instant from,
      List<Stored> everything,
      long segments,
      Opener opener) {
    StringSerializer keys = new StringSerializer();
    int limit = 4;
    List<String> paged = new ArrayList<>();
    ScanPosition after = null;
    boolean exhausted = false;
    while (!exhausted) {
      AtomicInteger read = new AtomicInteger();
      ScanPosition cursor = after;
      String fromKey = cursor != null ? new String(cursor.key(), StandardCharsets.UTF_8) : null;
      WindowPage<String> page = new WindowPage<>(keys, STORE, window, interval, from, TO, cursor);
      WindowPage.SegmentReads<String> counted =
          (segmentFrom, segmentTo) ->
              new Counting(opener.open(fromKey, segmentFrom, segmentTo), read);
      Slice<WindowItem> slice = page.read(counted, limit);
      assertThat(slice.items()).hasSizeLessThanOrEqualTo(limit);
      long windowsOfCursorKey =
          cursor == null
              ? 0
              : everything.stream().filter(s -> Arrays.equals(s.key(), cursor.key())).count();
      assertThat(read.get())
          .as(
              "a page reads its items, two more per segment, one to find the first segment"
                  + " and the cursor key's earlier windows")
          .isLessThanOrEqualTo(limit + 2 * (int) segments + 1 + (int) windowsOfCursorKey);
      slice.items().forEach(item -> paged.add(item.key() + "@" + item.start()));
      after = slice.last();
      exhausted = slice.exhausted();
    }
    return paged;
  }

  private static long segmentTime(ViewWindow window, Windowed<String> windowed) {
    return window.type() == ViewWindow.Type.SESSION
        ? windowed.window().end()
        : windowed.window().start();
  }

  private Properties config() {
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, "window-page");
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    config.put(StreamsConfig.STATE_DIR_CONFIG, this.stateDir.toString());
    return config;
  }

  @SuppressWarnings("unchecked")
  private static KeyValueIterator<Windowed<String>, Object> cast(
      KeyValueIterator<Windowed<String>, ?> iterator) {
    return (KeyValueIterator<Windowed<String>, Object>) iterator;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Opens the store's windows from a key on whose segment time lies in the range given. */
  @FunctionalInterface
  private interface Opener {
    KeyValueIterator<Windowed<String>, Object> open(
        @Nullable String fromKey, long segmentFrom, long segmentTo);
  }

  private record Stored(byte[] key, long start, KeyValue<Windowed<String>, Object> entry) {

    static final Comparator<Stored> SCAN_ORDER =
        (left, right) -> new ScanPosition(left.key, left.start).compareTo(right.key, right.start);
  }

  /** Counts the items read through an iterator. */
  private record Counting(KeyValueIterator<Windowed<String>, Object> iterator, AtomicInteger read)
      implements KeyValueIterator<Windowed<String>, Object> {

    @Override
    public boolean hasNext() {
      return this.iterator.hasNext();
    }

    @Override
    public KeyValue<Windowed<String>, Object> next() {
      this.read.incrementAndGet();
      return this.iterator.next();
    }

    @Override
    public Windowed<String> peekNextKey() {
      return this.iterator.peekNextKey();
    }

    @Override
    public void close() {
      this.iterator.close();
    }
  }
}
