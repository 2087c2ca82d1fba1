package dev.matview.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The check of a count view's change streams against the orders published. */
class ChangeTallyTests {

  @Test
  void valuesThatEachGoUpByOneFromAFreshStartAreInOrder() {
    ChangeTally tally = new ChangeTally();
    tally.freshStart("a");

    assertThat(tally.value("a", 0, null, "instance-1")).isTrue();
    assertThat(tally.value("a", 1, "p.0", "instance-1")).isTrue();
    assertThat(tally.value("a", 2, "p.1", "instance-2")).isTrue();
    assertThat(tally.value("b", 7, "q.0", "instance-3")).isTrue();

    assertThat(tally.events()).isEqualTo(4);
    assertThat(tally.freshStarts()).isEqualTo(1);
    assertThat(tally.gaps() + tally.duplicates() + tally.wentBack()).isZero();
    assertThat(tally.examples()).isEmpty();
    assertThat(tally.last("a")).isEqualTo(2);
  }

  @Test
  void aGapADuplicateAndAValueThatGoesBackAreEachCountedOnceNamingBothEvents() {
    ChangeTally tally = new ChangeTally();
    tally.value("a", 3, "p.3", "instance-1");

    assertThat(tally.value("a", 5, "p.5", "instance-2")).isFalse();
    assertThat(tally.value("a", 5, "p.6", "instance-2")).isFalse();
    assertThat(tally.value("a", 4, "p.7", "instance-3")).isFalse();
    assertThat(tally.value("a", 5, "p.8", "instance-3")).isTrue();

    assertThat(tally.gaps()).isEqualTo(1);
    assertThat(tally.duplicates()).isEqualTo(1);
    assertThat(tally.wentBack()).isEqualTo(1);
    assertThat(tally.examples())
        .containsExactly(
            "a: gap of 1, 5 (id p.5, from instance-2) after 3 (id p.3, from instance-1)",
            "a: duplicate, 5 (id p.6, from instance-2) after 5 (id p.5, from instance-2)",
            "a: went back, 4 (id p.7, from instance-3) after 5 (id p.6, from instance-2)");
  }

  @Test
  void theValueAfterASkipOrAFreshStartIsNotComparedButTheSkipIsCounted() {
    ChangeTally tally = new ChangeTally();
    tally.value("a", 3, "p.3", "instance-1");
    tally.skipped("a");

    assertThat(tally.value("a", 9, "p.9", "instance-2")).isTrue();
    tally.freshStart("a");
    assertThat(tally.value("a", 8, "p.8", "instance-3")).isTrue();
    assertThat(tally.value("a", 9, "p.9", "instance-3")).isTrue();

    assertThat(tally.skipped()).isEqualTo(1);
    assertThat(tally.freshStarts()).isEqualTo(1);
    assertThat(tally.events()).isEqualTo(5);
    assertThat(tally.gaps() + tally.duplicates() + tally.wentBack()).isZero();
  }

  @Test
  void anEventOfAnotherKeyIsOutOfOrderAndLeavesTheKeysCountAsItWas() {
    ChangeTally tally = new ChangeTally();
    tally.value("a", 3, "p.3", "instance-1");

    tally.otherKey("a", "b", "p.4", "instance-2");

    assertThat(tally.value("a", 4, "p.5", "instance-2")).isTrue();
    assertThat(tally.otherKeys()).isEqualTo(1);
    assertThat(tally.outOfOrder()).isEqualTo(1);
    assertThat(tally.examples()).containsExactly("a: an event of b (id p.4, from instance-2)");
  }

  @Test
  void keysWhoseLastValueIsNotTheirOrderCountAreMismatches() {
    ChangeTally tally = new ChangeTally();
    tally.value("a", 4, "p.4", "instance-1");
    tally.value("b", 2, "q.2", "instance-1");
    tally.value("c", 0, "r.0", "instance-1");
    tally.freshStart("d");

    assertThat(tally.mismatches(Map.of("a", 4L, "b", 3L, "c", 0L, "d", 0L, "e", 1L)))
        .containsExactly(
            "b: last value 2, orders published 3",
            "d: last value null, orders published 0",
            "e: last value null, orders published 1");
    assertThat(tally.keys()).containsExactly("a", "b", "c", "d");
  }

  @Test
  void streamsOpenedAndEndedAreCountedByOutcomeAndCause() {
    ChangeTally tally = new ChangeTally();
    tally.opened("200");
    tally.opened("200");
    tally.opened(ChangeTally.NO_CONNECTION);
    tally.ended("`reconnect` event");
    tally.ended("connection lost");
    tally.ended("connection lost");

    assertThat(tally.opens()).containsExactly(Map.entry("200", 2L), Map.entry("no connection", 1L));
    assertThat(tally.endings())
        .containsExactly(Map.entry("`reconnect` event", 1L), Map.entry("connection lost", 2L));
    assertThat(tally.reconnects()).isEqualTo(3);
  }
}
