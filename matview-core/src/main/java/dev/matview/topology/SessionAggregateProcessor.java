package dev.matview.topology;

import dev.matview.replica.StoreHandles;
import dev.matview.replica.WindowHandle;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.Window;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;

/**
 * Folds a session view's records into its store, as Kafka Streams' own session aggregation does:
 * the initializer, then the merger with each session of the key within the inactivity gap of the
 * record; a merged session that ended before the largest event time this task has seen, less grace
 * and gap, is left as it was: the record is late, and goes on to the view's {@link
 * SessionLateRecordGate} with that stream time as its value; else the sessions merged are removed,
 * the record aggregated and the merged session kept. It goes through Kafka's record cache, which
 * writes a session's updates between two commits to RocksDB and the changelog once.
 *
 * <p>Around each update and removal it keeps, the {@link StoreAggregation} serializes and checks it
 * and tells the change feed, and the store is given those bytes ({@link SerializedAggregate}); just
 * before, the processor tells the partition's {@link WindowHandle} that RocksDB lacks the session,
 * so that reads of the key go through the cache until it is written.
 */
final class SessionAggregateProcessor<K, V, A>
    extends AggregateProcessor<K, V, A, SessionStore<K, Object>, WindowHandle<?>, K, Long> {

  private final SessionWindows sessions;

  SessionAggregateProcessor(StoreAggregation<K, V, A> aggregation, SessionWindows sessions) {
    super(aggregation, StoreHandles::sessionHandle);
    this.sessions = sessions;
  }

  @Override
  void aggregate(Record<K, V> record, K key, V value, SessionStore<K, Object> store) {
    long timestamp = record.timestamp();
    long streamTime = streamTimeWith(timestamp);
    long gap = this.sessions.inactivityGap();
    long closeTime = streamTime - this.sessions.gracePeriodMs() - gap;
    List<Windowed<K>> merged = new ArrayList<>();
    long start = timestamp;
    long end = timestamp;
    A aggregate = this.aggregation.initial();
    try (KeyValueIterator<Windowed<K>, Object> found =
        store.findSessions(key, timestamp - gap, timestamp + gap)) {
      while (found.hasNext()) {
        KeyValue<Windowed<K>, Object> next = found.next();
        merged.add(next.key);
        aggregate = this.aggregation.merged(key, aggregate, next.value);
        start = Math.min(start, next.key.window().start());
        end = Math.max(end, next.key.window().end());
      }
    }
    if (end < closeTime) {
      context().forward(record.withValue(streamTime));
      return;
    }
    byte[] keyBytes = this.aggregation.key(key);
    if (start != timestamp || end != timestamp) {
      for (Windowed<K> session : merged) {
        long mergedStart = session.window().start();
        long mergedEnd = session.window().end();
        mark(keyBytes, mergedStart, mergedEnd);
        store.remove(session);
        this.aggregation.kept(keyBytes, timestamp, null, mergedStart, mergedEnd);
      }
    }
    byte[] valueBytes =
        this.aggregation.serialized(keyBytes, this.aggregation.add(key, value, aggregate));
    mark(keyBytes, start, end);
    store.put(new Windowed<>(key, new SessionSpan(start, end)), SerializedAggregate.of(valueBytes));
    this.aggregation.kept(keyBytes, timestamp, valueBytes, start, end);
  }

  private void mark(byte[] keyBytes, long start, long end) {
    WindowHandle<?> open = handle();
    if (open != null) {
      open.cached(keyBytes, start, end);
    }
  }

  /** A session's bounds, both inclusive, as Kafka Streams' session stores key them. */
  private static final class SessionSpan extends Window {

    SessionSpan(long start, long end) {
      super(start, end);
    }

    @Override
    public boolean overlap(Window other) {
      return start() <= other.end() && other.start() <= end();
    }
  }
}
