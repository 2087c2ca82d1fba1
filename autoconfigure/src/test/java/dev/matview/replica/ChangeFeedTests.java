package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A store partition's feed of updates: the stream thread appends, a fan-out thread hands each
 * listener its updates in order, the history is bounded in bytes and released when its last
 * listener leaves, and a store written from its changelog ends the listeners.
 */
class ChangeFeedTests {

  private static final long NO_WINDOW = StoreChange.NO_WINDOW;

  private final ScheduledThreadPoolExecutor fanOut = new ScheduledThreadPoolExecutor(2);

  @AfterEach
  void stopFanOut() {
    this.fanOut.shutdownNow();
  }

  @Test
  void updatesThatBypassTheFeedEndItsListenersAndNoStreamGoesOnAcrossThem() {
    ChangeFeed feed = feed(10_000, Duration.ZERO);
    Heard first = new Heard(null);
    feed.listen(first, 10);
    feed.changed(bytes("a"), bytes("1"), NO_WINDOW, NO_WINDOW, 11);
    feed.changed(bytes("a"), bytes("2"), NO_WINDOW, NO_WINDOW, 12);
    assertThat(feed.since(11, 0)).extracting(StoreChange::offset).containsExactly(12L);

    feed.bypassed();

    assertThat(first.closed).isTrue();
    assertThat(feed.listeners()).isZero();
    assertThat(feed.since(11, 0)).as("the updates 12 to 20 never passed the feed").isNull();
    Heard second = new Heard(null);
    feed.listen(second, 20);
    feed.changed(bytes("a"), bytes("3"), NO_WINDOW, NO_WINDOW, 21);
    feed.changed(bytes("a"), bytes("4"), NO_WINDOW, NO_WINDOW, 22);
    await().untilAsserted(() -> assertThat(second.offsets()).containsExactly(21L, 22L));
    assertThat(feed.since(21, 0)).extracting(StoreChange::offset).containsExactly(22L);
  }

  @Test
  void everyListenerHearsEveryUpdateOfItsKeyInOrderAndNoOther() {
    ChangeFeed feed = feed(10_000_000, Duration.ZERO);
    Heard ofA = new Heard(bytes("a"));
    Heard ofB = new Heard(bytes("b"));
    Heard ofEvery = new Heard(null);
    List.of(ofA, ofB, ofEvery).forEach((listener) -> feed.listen(listener, 0));
    List<Long> ofAExpected = new ArrayList<>();
    List<Long> ofBExpected = new ArrayList<>();
    Random random = new Random(45);
    for (long offset = 1; offset <= 20_000; offset++) {
      String key = List.of("a", "b", "c").get(random.nextInt(3));
      feed.changed(bytes(key), bytes("v" + offset), NO_WINDOW, NO_WINDOW, offset);
      if (key.equals("a")) {
        ofAExpected.add(offset);
      } else if (key.equals("b")) {
        ofBExpected.add(offset);
      }
    }
    await().untilAsserted(() -> assertThat(ofEvery.offsets()).hasSize(20_000));
    assertThat(ofEvery.offsets()).isSorted().doesNotHaveDuplicates();
    await().untilAsserted(() -> assertThat(ofA.offsets()).isEqualTo(ofAExpected));
    await().untilAsserted(() -> assertThat(ofB.offsets()).isEqualTo(ofBExpected));
    assertThat(ofA.closed || ofB.closed || ofEvery.closed).isFalse();
  }

  @Test
  void theStreamThreadNeverRunsAListenerAndASlowOneDoesNotHoldItUp() throws Exception {
    ChangeFeed feed = feed(100_000_000, Duration.ZERO);
    CountDownLatch release = new CountDownLatch(1);
    Heard slow = new Heard(null, release);
    feed.listen(slow, 0);
    AtomicReference<Thread> streamThread = new AtomicReference<>();
    CompletableFuture<Void> appended =
        CompletableFuture.runAsync(
            () -> {
              streamThread.set(Thread.currentThread());
              for (long offset = 1; offset <= 10_000; offset++) {
                feed.changed(bytes("k"), bytes("v"), NO_WINDOW, NO_WINDOW, offset);
              }
            });
    appended.get(30, TimeUnit.SECONDS);
    assertThat(slow.offsets()).as("held up in its first update").hasSizeLessThanOrEqualTo(1);
    release.countDown();
    await().untilAsserted(() -> assertThat(slow.offsets()).hasSize(10_000));
    assertThat(slow.threads).doesNotContain(streamThread.get()).isNotEmpty();
    assertThat(slow.offsets()).isSorted();
  }

  @Test
  void aListenerThatFallsAWholeHistoryBehindHearsSoAndTheOthersGoOn() throws Exception {
    ChangeFeed feed = feed(20 * (ChangeHistory.OVERHEAD + 2), Duration.ZERO);
    CountDownLatch release = new CountDownLatch(1);
    Heard slow = new Heard(null, release);
    feed.listen(slow, 0);
    feed.changed(bytes("k"), bytes("v"), NO_WINDOW, NO_WINDOW, 1);
    await().until(() -> slow.offsets().size() == 1);
    for (long offset = 2; offset <= 100; offset++) {
      feed.changed(bytes("k"), bytes("v"), NO_WINDOW, NO_WINDOW, offset);
    }
    Heard late = new Heard(null);
    feed.listen(late, 100);
    feed.changed(bytes("k"), bytes("v"), NO_WINDOW, NO_WINDOW, 101);
    release.countDown();
    await().until(() -> slow.fellBehind);
    await().untilAsserted(() -> assertThat(late.offsets()).containsExactly(101L));
    assertThat(slow.offsets()).as("none after the ones it missed").containsExactly(1L);
    assertThat(late.fellBehind).isFalse();
    assertThat(feed.listeners()).isOne();
  }

  @Test
  void theHistoryHoldsAtMostItsBytesWithBigAndSmallUpdates() {
    long bound = 50_000;
    ChangeFeed feed = feed(bound, Duration.ZERO);
    feed.listen(new Heard(null), 0);
    Random random = new Random(45);
    for (long offset = 1; offset <= 5_000; offset++) {
      int size = random.nextBoolean() ? 10 : 5_000 + random.nextInt(20_000);
      feed.changed(bytes("k" + offset), new byte[size], NO_WINDOW, NO_WINDOW, offset);
      assertThat(feed.historyBytes()).as("after update %d", offset).isLessThanOrEqualTo(bound);
    }
    int size = feed.historySize();
    assertThat(feed.since(5_000 - size, 0))
        .as("the newest %d updates, every one of them", size)
        .extracting(StoreChange::offset)
        .containsExactlyElementsOf(LongStream.rangeClosed(5_001 - size, 5_000).boxed().toList());
    assertThat(feed.since(4_999 - size, 0)).as("one more than it holds").isNull();
    assertThat(feed.since(1, 0)).as("dropped long ago").isNull();
    for (long offset = 5_001; offset <= 10_000; offset++) {
      feed.changed(bytes("k"), new byte[10], NO_WINDOW, NO_WINDOW, offset);
    }
    assertThat(feed.historySize()).isEqualTo(bound / (ChangeHistory.OVERHEAD + 1 + 10));
  }

  @Test
  void anUpdateLargerThanTheHistoryIsKeptAloneUntilTheNext() {
    ChangeFeed feed = feed(1_000, Duration.ZERO);
    feed.listen(new Heard(null), 0);
    feed.changed(bytes("k"), new byte[10], NO_WINDOW, NO_WINDOW, 1);
    feed.changed(bytes("k"), new byte[5_000], NO_WINDOW, NO_WINDOW, 2);
    assertThat(feed.historySize()).isOne();
    assertThat(feed.since(1, 0)).extracting(StoreChange::offset).containsExactly(2L);
    feed.changed(bytes("k"), new byte[10], NO_WINDOW, NO_WINDOW, 3);
    assertThat(feed.historySize()).isOne();
    assertThat(feed.historyBytes()).isLessThanOrEqualTo(1_000);
  }

  @Test
  void theHistoryIsReleasedWhenItsLastListenerLeaves() {
    ChangeFeed feed = feed(1_000_000, Duration.ZERO);
    Heard first = new Heard(null);
    Heard second = new Heard(bytes("k"));
    feed.listen(first, 0);
    feed.listen(second, 0);
    for (long offset = 1; offset <= 100; offset++) {
      feed.changed(bytes("k"), bytes("v"), NO_WINDOW, NO_WINDOW, offset);
    }
    feed.stop(first);
    assertThat(feed.isFollowed()).isTrue();
    assertThat(feed.historySize()).isEqualTo(100);
    feed.stop(second);
    assertThat(feed.isFollowed()).isFalse();
    assertThat(feed.historyBytes()).isZero();
    assertThat(feed.historySize()).isZero();
    feed.changed(bytes("k"), bytes("v"), NO_WINDOW, NO_WINDOW, 101);
    assertThat(feed.historySize()).as("nothing kept once released").isZero();
  }

  @Test
  void aStreamThatReconnectsWithinTheLingerGoesOnAndTheHistoryGoesAfterIt() {
    ChangeFeed feed = feed(1_000_000, Duration.ofMillis(300));
    Heard first = new Heard(bytes("k"));
    feed.listen(first, 0);
    for (long offset = 1; offset <= 10; offset++) {
      feed.changed(bytes("k"), bytes("v"), NO_WINDOW, NO_WINDOW, offset);
    }
    feed.stop(first);
    feed.changed(bytes("k"), bytes("v"), NO_WINDOW, NO_WINDOW, 11);
    Heard again = new Heard(bytes("k"));
    feed.listen(again, 11);
    assertThat(feed.since(5, 0))
        .extracting(StoreChange::offset)
        .containsExactly(6L, 7L, 8L, 9L, 10L, 11L);
    feed.stop(again);
    assertThat(feed.isFollowed()).as("for the linger").isTrue();
    await().atMost(Duration.ofSeconds(30)).until(() -> !feed.isFollowed());
    assertThat(feed.historyBytes()).isZero();
  }

  private ChangeFeed feed(long historyBytes, Duration linger) {
    return new ChangeFeed(historyBytes, linger, this.fanOut);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * What a listener heard, and on which threads; it may wait for a latch in each update (at most 30
   * s, so that a feed that ran it on the appending thread fails rather than hangs).
   */
  private static final class Heard implements ChangeListener {

    private final byte @Nullable [] key;

    private final @Nullable CountDownLatch release;

    private final List<StoreChange> changes = Collections.synchronizedList(new ArrayList<>());

    private final List<Thread> threads = Collections.synchronizedList(new ArrayList<>());

    private volatile boolean closed;

    private volatile boolean fellBehind;

    Heard(byte @Nullable [] key) {
      this(key, null);
    }

    Heard(byte @Nullable [] key, @Nullable CountDownLatch release) {
      this.key = key;
      this.release = release;
    }

    @Override
    public void changed(StoreChange change) {
      this.changes.add(change);
      this.threads.add(Thread.currentThread());
      CountDownLatch latch = this.release;
      if (latch != null) {
        try {
          latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
        }
      }
    }

    @Override
    public void closed() {
      this.closed = true;
    }

    @Override
    public void fellBehind() {
      this.fellBehind = true;
    }

    @Override
    public byte @Nullable [] key() {
      return this.key;
    }

    List<Long> offsets() {
      synchronized (this.changes) {
        return this.changes.stream().map(StoreChange::offset).toList();
      }
    }
  }
}
