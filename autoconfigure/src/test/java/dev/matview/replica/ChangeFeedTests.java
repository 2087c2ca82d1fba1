package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A store partition's feed of updates when the store is written from its changelog instead. */
class ChangeFeedTests {

  private final ChangeFeed feed = new ChangeFeed(10);

  @Test
  void updatesThatBypassTheFeedEndItsListenersAndNoStreamGoesOnAcrossThem() {
    Heard first = new Heard();
    this.feed.listen(first, 10);
    this.feed.changed(key("a"), value("1"), StoreChange.NO_WINDOW, StoreChange.NO_WINDOW, 11);
    this.feed.changed(key("a"), value("2"), StoreChange.NO_WINDOW, StoreChange.NO_WINDOW, 12);
    assertThat(this.feed.since(11, 0)).extracting(StoreChange::offset).containsExactly(12L);

    this.feed.bypassed();

    assertThat(first.closed).isTrue();
    assertThat(this.feed.listeners()).isZero();
    assertThat(this.feed.since(11, 0)).as("the updates 12 to 20 never passed the feed").isNull();
    Heard second = new Heard();
    this.feed.listen(second, 20);
    this.feed.changed(key("a"), value("3"), StoreChange.NO_WINDOW, StoreChange.NO_WINDOW, 21);
    this.feed.changed(key("a"), value("4"), StoreChange.NO_WINDOW, StoreChange.NO_WINDOW, 22);
    assertThat(second.changes).extracting(StoreChange::offset).containsExactly(21L, 22L);
    assertThat(this.feed.since(21, 0)).extracting(StoreChange::offset).containsExactly(22L);
  }

  private static byte[] key(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }

  /** What a listener heard. */
  private static final class Heard implements ChangeListener {

    private final List<StoreChange> changes = new ArrayList<>();

    private boolean closed;

    @Override
    public void changed(StoreChange change) {
      this.changes.add(change);
    }

    @Override
    public void closed() {
      this.closed = true;
    }
  }
}
