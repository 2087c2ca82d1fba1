package dev.matview.replica;

/** Hears the updates of a store partition on the stream thread; must not block. */
public interface ChangeListener {

  /** The store kept {@code change}. */
  void changed(StoreChange change);

  /**
   * No update follows through this feed: Kafka Streams closed the store partition, or writes it
   * from its changelog (a restore, or a standby's updates), which bypasses the feed.
   */
  void closed();
}
