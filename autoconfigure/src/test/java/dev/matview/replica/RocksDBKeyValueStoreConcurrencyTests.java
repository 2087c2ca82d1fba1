package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests for {@link RocksDBKeyValueStore} read on several threads while the thread that owns it
 * writes every key in batches and finally closes it: a key's value never goes back, a range reads
 * one batch's values throughout, and nothing reads the database once it closed.
 */
class RocksDBKeyValueStoreConcurrencyTests {

  private static final int KEYS = 200;

  private static final int READERS = 3;

  private static final long BATCHES = 400;

  @TempDir Path stateDir;

  @Test
  void readsAndRangesWhileTheOwningThreadWritesAndThenClosesMeetNoTornState() throws Exception {
    RocksDBKeyValueStore store = new RocksDBKeyValueStore("concurrent");
    store.init(new RecordingStoreContext(this.stateDir, Map.of()), store);
    writeBatch(store, 0);
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicLong reads = new AtomicLong();
    AtomicLong ranges = new AtomicLong();
    AtomicReference<@Nullable Throwable> wrong = new AtomicReference<>();
    List<Thread> readers = new ArrayList<>();
    for (int i = 0; i < READERS; i++) {
      boolean scans = i == 0;
      Thread reader =
          new Thread(
              () -> {
                try {
                  read(store, scans ? ranges : reads, scans, writing);
                } catch (Throwable ex) {
                  wrong.compareAndSet(null, ex);
                }
              },
              "reader-" + i);
      reader.start();
      readers.add(reader);
    }
    for (long batch = 1; batch <= BATCHES && wrong.get() == null; batch++) {
      writeBatch(store, batch);
    }
    writing.set(false);
    store.close();
    for (Thread reader : readers) {
      reader.join(Duration.ofSeconds(30).toMillis());
    }
    assertThat(wrong.get()).isNull();
    assertThat(readers).noneMatch(Thread::isAlive);
    assertThat(reads.get()).isPositive();
    assertThat(ranges.get()).isPositive();
  }

  /**
   * Reads until the store closes and refuses: random keys, each never older than it was last read,
   * or whole ranges, each of one batch.
   */
  private static void read(
      RocksDBKeyValueStore store, AtomicLong count, boolean scans, AtomicBoolean writing) {
    long[] seen = new long[KEYS];
    ThreadLocalRandom random = ThreadLocalRandom.current();
    while (true) {
      try {
        if (scans) {
          assertOneBatch(store);
        } else {
          int key = random.nextInt(KEYS);
          long batch = batchOf(store.get(key(key)));
          assertThat(batch).as("key %d went back", key).isGreaterThanOrEqualTo(seen[key]);
          seen[key] = batch;
        }
        count.incrementAndGet();
      } catch (InvalidStateStoreException ex) {
        assertThat(writing).as("refused before the close").isFalse();
        return;
      }
    }
  }

  private static void assertOneBatch(RocksDBKeyValueStore store) {
    try (KeyValueIterator<Bytes, byte[]> range = store.all()) {
      long first = -1;
      int keys = 0;
      while (range.hasNext()) {
        KeyValue<Bytes, byte[]> entry = range.next();
        long batch = batchOf(entry.value);
        first = (first < 0) ? batch : first;
        assertThat(batch).as("a range read two batches").isEqualTo(first);
        keys++;
      }
      assertThat(keys).isEqualTo(KEYS);
    }
  }

  private static void writeBatch(RocksDBKeyValueStore store, long batch) {
    List<KeyValue<Bytes, byte[]>> entries = new ArrayList<>(KEYS);
    for (int key = 0; key < KEYS; key++) {
      byte[] padding = ("value of " + key).getBytes(StandardCharsets.UTF_8);
      entries.add(
          KeyValue.pair(
              key(key),
              ByteBuffer.allocate(2 * Long.BYTES + padding.length)
                  .putLong(batch)
                  .putLong(batch)
                  .put(padding)
                  .array()));
    }
    store.putAll(entries);
  }

  private static long batchOf(byte @Nullable [] value) {
    assertThat(value).isNotNull();
    ByteBuffer buffer = ByteBuffer.wrap(value);
    long timestamp = buffer.getLong();
    assertThat(buffer.getLong()).as("a torn value").isEqualTo(timestamp);
    return timestamp;
  }

  private static Bytes key(int key) {
    return Bytes.wrap(String.format("key-%05d", key).getBytes(StandardCharsets.UTF_8));
  }
}
