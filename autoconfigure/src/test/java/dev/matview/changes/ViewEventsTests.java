package dev.matview.changes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.peer.PeerSecret;
import dev.matview.peer.PeerTrust;
import dev.matview.position.PositionTokens;
import dev.matview.replica.StoreChange;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.Views;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The events of a view's updates are made once for all the streams that write them: the same update
 * gives the same event, and another update, even at the same place of another partition, its own.
 */
class ViewEventsTests {

  private final ViewSerdes serdes = new ViewSerdes(JsonMapper.builder().build());

  private final ResolvedView<?, ?, ?> view =
      ViewRegistry.of(
              Map.of("counts", Views.from("events", Click.class).count()), this.serdes, "app")
          .find("counts")
          .orElseThrow();

  private final ViewEvents events =
      new ViewEvents(
          "counts",
          new ChangeDecoder(this.view, "app-counts-changelog", this.serdes.mapper()),
          new EventIds(
              new PositionTokens(PeerTrust.of(PeerSecret.of(PeerSecret.randomMaterial())), "app")));

  @Test
  void makesTheEventOfAnUpdateOnceForEveryStreamThatWritesIt() {
    StoreChange change = change("user-1", 7, 42);
    ChangeEvent first = this.events.of(3, change);
    assertThat(first.kind()).isEqualTo(ChangeEvent.Kind.VALUE);
    assertThat(first.data()).isEqualTo("{\"key\":\"user-1\",\"value\":7}");
    assertThat(first.id()).endsWith(".0");
    assertThat(this.events.of(3, change)).isSameAs(first);
  }

  @Test
  void makesItsOwnEventForAnotherUpdateAtTheSamePlace() {
    ChangeEvent first = this.events.of(3, change("user-1", 7, 42));
    ChangeEvent sameUpdateAgain = this.events.of(3, change("user-1", 7, 42));
    ChangeEvent otherPartition = this.events.of(4, change("user-2", 8, 42));
    assertThat(sameUpdateAgain).isNotSameAs(first).isEqualTo(first);
    assertThat(otherPartition.data()).isEqualTo("{\"key\":\"user-2\",\"value\":8}");
    assertThat(otherPartition.id()).isNotEqualTo(first.id());
  }

  @SuppressWarnings("unchecked")
  private StoreChange change(String key, long count, long offset) {
    String topic = "app-counts-changelog";
    byte[] keyBytes = ((Serde<String>) this.view.keySerde()).serializer().serialize(topic, key);
    byte[] aggregate =
        ((Serde<Long>) this.view.aggregateSerde()).serializer().serialize(topic, count);
    byte[] stored = new byte[Long.BYTES + aggregate.length];
    System.arraycopy(aggregate, 0, stored, Long.BYTES, aggregate.length);
    return new StoreChange(
        keyBytes, stored, StoreChange.NO_WINDOW, StoreChange.NO_WINDOW, offset, 0);
  }

  record Click(String user) {}
}
