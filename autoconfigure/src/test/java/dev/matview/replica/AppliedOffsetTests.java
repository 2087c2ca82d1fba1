package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

class AppliedOffsetTests {

  private final KeyValueStore<Bytes, byte[]> store = Stores.inMemoryKeyValueStore("counts").get();

  @Test
  void wakesEachWaiterOnceWhenItsOffsetHasBeenApplied() {
    AppliedOffset offset = new AppliedOffset(this.store, 0);
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
    AppliedOffset offset = new AppliedOffset(this.store, 0);
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
    AppliedOffset offset = new AppliedOffset(this.store, 0);
    AtomicInteger woken = new AtomicInteger();
    List<AppliedOffset.Waiter> waiters = new ArrayList<>();
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
    AppliedOffset offset = new AppliedOffset(this.store, 2);
    assertThat(offset.inputApplied(5)).isEqualTo(AppliedOffset.NONE);
    offset.inputApplied(5, 40);
    offset.inputApplied(1, 9);
    offset.inputApplied(5, 12);
    assertThat(offset.inputApplied(5)).isEqualTo(40);
    assertThat(offset.inputApplied(1)).isEqualTo(9);
    assertThat(offset.inputApplied(0)).isEqualTo(AppliedOffset.NONE);
  }
}
