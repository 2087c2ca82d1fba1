package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How far a store partition has applied its topic, and the lookups that wait for it: each woken
 * once when its offset is applied, and a record that wakes nobody looks at one waiter however many
 * wait.
 */
class AppliedOffsetTests {

  private final KeyValueStore<Bytes, byte[]> store = Stores.inMemoryKeyValueStore("counts").get();

  private final ScheduledThreadPoolExecutor fanOut = new ScheduledThreadPoolExecutor(1);

  @AfterEach
  void stopFanOut() {
    this.fanOut.shutdownNow();
  }

  @Test
  void wakesEachWaiterOnceWhenItsOffsetHasBeenApplied() {
    AppliedOffset offset = offset(0);
    AtomicInteger early = new AtomicInteger();
    AtomicInteger late = new AtomicInteger();
    for (int i = 0; i < 1000; i++) {
      offset.await(10, early::incrementAndGet);
      offset.await(20, late::incrementAndGet);
    }
    offset.begin(10);
    assertThat(early).hasValue(0);
    offset.complete(10);
    assertThat(early).hasValue(1000);
    assertThat(late).hasValue(0);
    offset.complete(25);
    offset.complete(30);
    assertThat(late).hasValue(1000);
    assertThat(early).hasValue(1000);
  }

  @Test
  void wakesAtOnceWhenTheOffsetWasAppliedBeforeAndNeverGoesBack() {
    AppliedOffset offset = offset(0);
    offset.begin(7);
    offset.complete(7);
    offset.complete(3);
    assertThat(offset.applied()).isEqualTo(7);
    assertThat(offset.begun()).isEqualTo(7);
    AtomicInteger woken = new AtomicInteger();
    offset.await(5, woken::incrementAndGet);
    assertThat(woken).hasValue(1);
  }

  @Test
  void aForgottenWaiterIsNeverWokenAndAClosedStoreWakesTheRest() {
    AppliedOffset offset = offset(0);
    AtomicInteger woken = new AtomicInteger();
    List<OffsetWaiters.Waiter> waiters = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      waiters.add(offset.await(100, woken::incrementAndGet));
    }
    waiters.subList(0, 4).forEach(offset::forget);
    offset.complete(100);
    assertThat(woken).hasValue(6);
    offset.await(200, woken::incrementAndGet);
    offset.close();
    assertThat(woken).hasValue(7);
    assertThat(offset.isClosed()).isTrue();
  }

  @Test
  void tellsTheSourceOffsetsThatReachedThePartitionThroughTheRepartitionTopic() {
    AppliedOffset offset = offset(2);
    assertThat(offset.inputApplied(5)).isEqualTo(AppliedOffset.NONE);
    offset.inputApplied(5, 40);
    offset.inputApplied(1, 9);
    offset.inputApplied(5, 12);
    assertThat(offset.inputApplied(5)).isEqualTo(40);
    assertThat(offset.inputApplied(1)).isEqualTo(9);
    assertThat(offset.inputApplied(0)).isEqualTo(AppliedOffset.NONE);
  }

  @Test
  void wakesEachWaiterExactlyWhenItsOffsetIsReachedWhateverTheOrderOfRegistration() {
    AppliedOffset offset = offset(0);
    List<Long> offsets = new ArrayList<>();
    for (long wanted = 0; wanted < 200; wanted++) {
      offsets.add(wanted);
      offsets.add(wanted / 2);
    }
    Collections.shuffle(offsets, new Random(45));
    Map<Long, AtomicInteger> woken = new HashMap<>();
    for (long wanted : offsets) {
      AtomicInteger count = woken.computeIfAbsent(wanted, (ignored) -> new AtomicInteger());
      offset.await(wanted, count::incrementAndGet);
    }
    Map<Long, Long> registered = new HashMap<>();
    offsets.forEach((wanted) -> registered.merge(wanted, 1L, Long::sum));
    for (long reached = 0; reached < 200; reached++) {
      offset.begin(reached);
      offset.complete(reached);
      for (Map.Entry<Long, AtomicInteger> waiter : woken.entrySet()) {
        long expected = (waiter.getKey() <= reached) ? registered.get(waiter.getKey()) : 0;
        assertThat(waiter.getValue().get())
            .as("waiters of offset %d once %d is applied", waiter.getKey(), reached)
            .isEqualTo((int) expected);
      }
    }
    assertThat(offset.waiting()).isZero();
  }

  @Test
  void aRecordThatWakesNobodyLooksAtOneWaiterHoweverManyWait() {
    for (int count : new int[] {1, 100, 10_000}) {
      AppliedOffset offset = offset(0);
      for (int i = 0; i < count; i++) {
        offset.await(1_000_000 + i, () -> {});
      }
      long before = offset.examined();
      for (long record = 0; record < 1000; record++) {
        offset.begin(record);
        offset.complete(record);
      }
      assertThat(offset.examined() - before)
          .as("waiters looked at by 1,000 records with %d waiting", count)
          .isEqualTo(1000);
    }
  }

  @Test
  void aRecordThatWakesSomeLooksAtThoseAndTheNextOneOnly() {
    AppliedOffset offset = offset(0);
    AtomicInteger woken = new AtomicInteger();
    for (int i = 0; i < 10_000; i++) {
      offset.await(100 + (i % 1000), woken::incrementAndGet);
    }
    long before = offset.examined();
    offset.begin(104);
    offset.complete(104);
    assertThat(woken).as("offsets 100 to 104, ten waiters each").hasValue(50);
    assertThat(offset.examined() - before).isEqualTo(51);
    assertThat(offset.waiting()).isEqualTo(9_950);
  }

  @Test
  void waitsThatEndForAnotherReasonLeaveTheIndex() {
    AppliedOffset offset = offset(0);
    AtomicInteger woken = new AtomicInteger();
    List<OffsetWaiters.Waiter> waiters = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      waiters.add(offset.await(50 + (i % 7), woken::incrementAndGet));
    }
    waiters.subList(0, 600).forEach(offset::forget);
    assertThat(offset.waiting()).isEqualTo(400);
    waiters.subList(600, 700).forEach(OffsetWaiters.Waiter::cancel);
    offset.complete(100);
    assertThat(woken).as("cancelled ones are taken out without waking").hasValue(300);
    assertThat(offset.waiting()).isZero();
    OffsetWaiters.Waiter late = offset.await(200, woken::incrementAndGet);
    offset.forget(late);
    offset.forget(late);
    assertThat(offset.waiting()).isZero();
  }

  private AppliedOffset offset(int partition) {
    return new AppliedOffset(
        this.store, partition, new ChangeFeed(1024, Duration.ZERO, this.fanOut));
  }
}
