package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

class StorePositionsTests {

  private final KeyValueStore<Bytes, byte[]> store = Stores.inMemoryKeyValueStore("counts").get();

  private final StorePositions positions = new StorePositions();

  @Test
  void wakesAReadThatWaitsForAPartitionNotOpenYetOnceWhenItOpens() {
    AtomicInteger woken = new AtomicInteger();
    AtomicInteger otherPartition = new AtomicInteger();
    for (int i = 0; i < 100; i++) {
      this.positions.progress("counts", 1, 5).await(woken::incrementAndGet);
      this.positions.progress("counts", 2, 5).await(otherPartition::incrementAndGet);
    }
    assertThat(woken).hasValue(0);
    this.positions.opened("counts", 1, this.store);
    assertThat(woken).hasValue(100);
    this.positions.opened("other", 1, this.store);
    assertThat(otherPartition).hasValue(0);
    this.positions.closed("counts", this.positions.of("counts", 1));
    this.positions.opened("counts", 1, this.store);
    assertThat(woken).hasValue(100);
  }

  @Test
  void neverWakesAWaitForgottenBeforeTheStoreOpened() {
    AtomicInteger woken = new AtomicInteger();
    PartitionProgress.Wait forgotten =
        this.positions.progress("counts", 0, 5).await(woken::incrementAndGet);
    forgotten.forget();
    this.positions.opened("counts", 0, this.store);
    assertThat(woken).hasValue(0);
  }

  @Test
  void waitsOnAnOpenStoreForTheOffsetAndWakesWhenItCloses() {
    AppliedOffset offset = this.positions.opened("counts", 0, this.store);
    AtomicInteger applied = new AtomicInteger();
    AtomicInteger closed = new AtomicInteger();
    this.positions.progress("counts", 0, 5).await(applied::incrementAndGet);
    this.positions.progress("counts", 0, 50).await(closed::incrementAndGet);
    offset.complete(4);
    assertThat(applied).hasValue(0);
    offset.complete(5);
    assertThat(applied).hasValue(1);
    assertThat(closed).hasValue(0);
    this.positions.closed("counts", offset);
    assertThat(closed).hasValue(1);
    AtomicInteger atOnce = new AtomicInteger();
    this.positions.opened("counts", 0, this.store).complete(9);
    this.positions.progress("counts", 0, 9).await(atOnce::incrementAndGet);
    assertThat(atOnce).hasValue(1);
  }
}
