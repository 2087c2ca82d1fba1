package dev.matview.replica;

import java.time.Instant;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.jspecify.annotations.Nullable;

/**
 * Kafka's session store of one partition, unchanged, that tells of its opening once Kafka Streams
 * has opened it and refuses an update whose changelog record would be too large before Kafka's
 * store keeps it. Every method of {@link SessionStore}, default methods included, is passed on, so
 * that the store answers each as Kafka's own would.
 */
final class SignallingSessionStore extends WrappedStore<SessionStore<Bytes, byte[]>>
    implements SessionStore<Bytes, byte[]> {

  private final StoreHandles handles;

  private final ChangelogSizeCheck sizeCheck;

  SignallingSessionStore(
      SessionStore<Bytes, byte[]> store, StoreHandles handles, ChangelogSizeCheck sizeCheck) {
    super(store, handles.positions());
    this.handles = handles;
    this.sizeCheck = sizeCheck;
  }

  @Override
  void opened(int partition) {
    this.handles.announce(name(), partition);
  }

  @Override
  public void put(Windowed<Bytes> sessionKey, byte @Nullable [] aggregate) {
    if (aggregate != null) {
      this.sizeCheck.check(sessionKey.key().get().length, aggregate.length);
    }
    this.store.put(sessionKey, aggregate);
    changed(sessionKey, aggregate);
  }

  @Override
  public void remove(Windowed<Bytes> sessionKey) {
    this.store.remove(sessionKey);
    changed(sessionKey, null);
  }

  private void changed(Windowed<Bytes> sessionKey, byte @Nullable [] aggregate) {
    changed(
        sessionKey.key().get(), aggregate, sessionKey.window().start(), sessionKey.window().end());
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
