package dev.matview.replica;

/** Hears the updates of a store partition on the stream thread; must not block. */
public interface ChangeListener {

  /** The store kept {@code change}. */
  void changed(StoreChange change);

  /** Kafka Streams closed the store partition: no update follows. */
  void closed();
}
