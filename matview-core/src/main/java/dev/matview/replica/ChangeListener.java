package dev.matview.replica;

import org.jspecify.annotations.Nullable;

/**
 * Hears the updates of a store partition, in the order the stream thread made them, on a thread of
 * the feed's fan-out; must not block.
 */
public interface ChangeListener {

  /** The store kept {@code change}. */
  void changed(StoreChange change);

  /**
   * No update follows through this feed: Kafka Streams closed the store partition, or writes it
   * from its changelog (a restore, or a standby's updates), which bypasses the feed.
   */
  void closed();

  /**
   * No update follows through this feed: it dropped updates from its history before handing them on
   * to this listener, whose stream went on too far behind the stream thread.
   */
  default void fellBehind() {
    closed();
  }

  /** The serialized key whose updates it hears, or {@code null} for every key's. */
  default byte @Nullable [] key() {
    return null;
  }
}
