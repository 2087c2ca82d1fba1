package dev.matview.replica;

import java.time.Instant;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.jspecify.annotations.Nullable;

/**
 * Kafka's session store of one partition, unchanged, that registers with the {@link StoreHandles}
 * once Kafka Streams has opened it and leaves them before Kafka Streams closes it, refuses an
 * update whose changelog record would be too large before Kafka's store keeps it, and tells the
 * partition's {@link WindowHandle} when the record cache above it wrote or removed a session. Every
 * method of {@link SessionStore}, default methods included, is passed on, so that the store answers
 * each as Kafka's own would. The session aggregation, above the cache, tells the change feed of
 * each update.
 */
final class SignallingSessionStore
    extends WrappedStore<SessionStore<Bytes, byte[]>, WindowHandle<SessionStore<Bytes, byte[]>>>
    implements SessionStore<Bytes, byte[]> {

  SignallingSessionStore(
      SessionStore<Bytes, byte[]> store, StoreHandles handles, ChangelogSizeCheck sizeCheck) {
    super(store, handles.positions(), handles.sessions(), sizeCheck);
  }

  @Override
  public void put(Windowed<Bytes> sessionKey, byte @Nullable [] aggregate) {
    checkSize(sessionKey.key(), aggregate, 0);
    this.store.put(sessionKey, aggregate);
    written(sessionKey);
  }

  @Override
  public void remove(Windowed<Bytes> sessionKey) {
    this.store.remove(sessionKey);
    written(sessionKey);
  }

  /** RocksDB has the latest update of the session: reads of its key may read it there again. */
  private void written(Windowed<Bytes> sessionKey) {
    WindowHandle<?> open = handle();
    if (open != null) {
      open.written(sessionKey.key(), sessionKey.window().start(), sessionKey.window().end());
    }
  }

  @Override
  public byte @Nullable [] fetchSession(Bytes key, long sessionStartTime, long sessionEndTime) {
    return this.store.fetchSession(key, sessionStartTime, sessionEndTime);
  }

  @Override
  public byte @Nullable [] fetchSession(
      Bytes key, Instant sessionStartTime, Instant sessionEndTime) {
    return this.store.fetchSession(key, sessionStartTime, sessionEndTime);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(
      long earliestSessionEndTime, long latestSessionEndTime) {
    return this.store.findSessions(earliestSessionEndTime, latestSessionEndTime);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(
      Bytes key, long earliestSessionEndTime, long latestSessionStartTime) {
    return this.store.findSessions(key, earliestSessionEndTime, latestSessionStartTime);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(
      Bytes key, Instant earliestSessionEndTime, Instant latestSessionStartTime) {
    return this.store.findSessions(key, earliestSessionEndTime, latestSessionStartTime);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(
      Bytes key, long earliestSessionEndTime, long latestSessionStartTime) {
    return this.store.backwardFindSessions(key, earliestSessionEndTime, latestSessionStartTime);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(
      Bytes key, Instant earliestSessionEndTime, Instant latestSessionStartTime) {
    return this.store.backwardFindSessions(key, earliestSessionEndTime, latestSessionStartTime);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(
      @Nullable Bytes keyFrom,
      @Nullable Bytes keyTo,
      long earliestSessionEndTime,
      long latestSessionStartTime) {
    return this.store.findSessions(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(
      @Nullable Bytes keyFrom,
      @Nullable Bytes keyTo,
      Instant earliestSessionEndTime,
      Instant latestSessionStartTime) {
    return this.store.findSessions(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(
      @Nullable Bytes keyFrom,
      @Nullable Bytes keyTo,
      long earliestSessionEndTime,
      long latestSessionStartTime) {
    return this.store.backwardFindSessions(
        keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(
      @Nullable Bytes keyFrom,
      @Nullable Bytes keyTo,
      Instant earliestSessionEndTime,
      Instant latestSessionStartTime) {
    return this.store.backwardFindSessions(
        keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes key) {
    return this.store.fetch(key);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes key) {
    return this.store.backwardFetch(key);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(
      @Nullable Bytes keyFrom, @Nullable Bytes keyTo) {
    return this.store.fetch(keyFrom, keyTo);
  }

  @Override
  public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(
      @Nullable Bytes keyFrom, @Nullable Bytes keyTo) {
    return this.store.backwardFetch(keyFrom, keyTo);
  }
}
