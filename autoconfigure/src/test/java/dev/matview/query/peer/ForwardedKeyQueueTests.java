package dev.matview.query.peer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.peer.ForwardedKeyQueue.Lookup;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;

class ForwardedKeyQueueTests {

  private final ForwardedKeyQueue queue = new ForwardedKeyQueue();

  @Test
  void theFirstLookupSendsAtOnceAndTakesTheLookupsThatWaitedMeanwhile() {
    Lookup first = lookup("a");
    Lookup second = lookup("b");
    Lookup third = lookup("c");

    assertThat(this.queue.enter(first)).isTrue();
    assertThat(this.queue.enter(second)).isFalse();
    assertThat(this.queue.enter(third)).isFalse();

    assertThat(this.queue.waiting()).isEqualTo(2);
    assertThat(this.queue.batch(first)).containsExactly(first, second, third);
    assertThat(this.queue.waiting()).isZero();
    assertThat(second.turn()).isNotDone();
  }

  @Test
  void aLookupThatLeadsTakesEveryLookupWaitingByThenUpToOneRequestsWorth() {
    assertThat(this.queue.enter(lookup("lead"))).isTrue();
    List<Lookup> waiting = new ArrayList<>();
    for (int i = 0; i < ForwardedKeyLookups.MAX_KEYS + 3; i++) {
      Lookup next = lookup("k" + i);
      waiting.add(next);
      assertThat(this.queue.enter(next)).isFalse();
    }

    assertThat(this.queue.leave()).isFalse();
    Lookup leader = waiting.get(0);
    assertThat(leader.turn()).isCompletedWithValue(ForwardedKeyQueue.LEAD);
    List<Lookup> batch = this.queue.batch(leader);

    assertThat(batch).hasSize(ForwardedKeyLookups.MAX_KEYS);
    assertThat(batch.get(0)).isSameAs(leader);
    assertThat(batch.subList(1, batch.size()))
        .containsExactlyElementsOf(waiting.subList(1, ForwardedKeyLookups.MAX_KEYS));
    assertThat(this.queue.waiting()).isEqualTo(3);
  }

  @Test
  void anIdleQueueRetiresAndTakesNoLookupAfterwards() {
    assertThat(this.queue.enter(lookup("a"))).isTrue();

    assertThat(this.queue.leave()).isTrue();

    assertThat(this.queue.enter(lookup("b"))).isNull();
    assertThat(this.queue.waiting()).isZero();
  }

  @Test
  void aWaitingLookupWithdrawsOnceAndNotAfterItWasTakenIntoARequest() {
    Lookup first = lookup("a");
    Lookup withdrawn = lookup("b");
    Lookup carried = lookup("c");
    this.queue.enter(first);
    this.queue.enter(withdrawn);

    assertThat(this.queue.withdraw(withdrawn)).isTrue();
    assertThat(this.queue.withdraw(withdrawn)).isFalse();

    this.queue.enter(carried);
    assertThat(this.queue.batch(first)).containsExactly(first, carried);
    assertThat(this.queue.withdraw(carried)).isFalse();
  }

  private static Lookup lookup(String key) {
    return new Lookup(new PartitionOwner(0, new HostInfo("127.0.0.1", 8081)), key);
  }
}
