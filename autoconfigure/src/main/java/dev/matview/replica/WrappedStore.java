package dev.matview.replica;

import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.TimestampedBytesStore;

/**
 * Kafka's store of one partition behind one of Matview's: passes on what every state store does and
 * hears the partition once Kafka Streams has opened the store.
 *
 * @param <S> the kind of store wrapped
 */
abstract class WrappedStore<S extends StateStore> implements StateStore {

  /** Kafka's store, to which every call is passed on. */
  protected final S store;

  WrappedStore(S store) {
    this.store = store;
  }

  /** {@code store}, refused unless Kafka Streams keeps timestamps in it. */
  static <S extends StateStore> S requireTimestamped(S store) {
    if (!(store instanceof TimestampedBytesStore)) {
      throw new IllegalArgumentException(
          "Store '" + store.name() + "' does not keep timestamps; a timestamped store is needed");
    }
    return store;
  }

  /** Kafka Streams opened the store of {@code partition}. */
  abstract void opened(int partition);

  @Override
  public final void init(StateStoreContext context, StateStore root) {
    this.store.init(context, root);
    opened(context.taskId().partition());
  }

  @Override
  public void close() {
    this.store.close();
  }

  @Override
  public String name() {
    return this.store.name();
  }

  @Override
  public void flush() {
    this.store.flush();
  }

  @Override
  public boolean persistent() {
    return this.store.persistent();
  }

  @Override
  public boolean isOpen() {
    return this.store.isOpen();
  }

  @Override
  public <R> QueryResult<R> query(Query<R> query, PositionBound bound, QueryConfig config) {
    return this.store.query(query, bound, config);
  }

  @Override
  public Position getPosition() {
    return this.store.getPosition();
  }
}
