package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests for {@link ReplicaHandle}: on Matview's RocksDB store, made by {@link StoreHandles} and
 * opened with a real {@link StateStoreContext}, reads through the handle on several threads never
 * meet a closed database while the store closes and opens again under them.
 */
class ReplicaHandleTests {

  private static final String STORE = "stress";

  private static final int KEYS = 500;

  private static final int ROUNDS = 15;

  private static final int READERS = 4;

  private static final int READS_PER_ROUND = 3_000;

  @TempDir Path stateDir;

  private final StoreHandles handles = new StoreHandles();

  @Test
  void everyReadWhileTheStoreClosesAndReopensAnswersTheStoredValueOrIsRefused() throws Exception {
    KeyValueBytesStoreSupplier supplier = this.handles.keyValueStore(STORE, (key, value) -> {});
    StateStoreContext context = StateStoreContexts.of(this.stateDir);
    AtomicReference<@Nullable ReplicaHandle> current = new AtomicReference<>();
    AtomicLong answered = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    AtomicReference<@Nullable Throwable> wrong = new AtomicReference<>();
    AtomicBoolean done = new AtomicBoolean();
    List<Thread> readers = new ArrayList<>();
    for (int i = 0; i < READERS; i++) {
      Thread reader =
          new Thread(() -> read(current, answered, refused, wrong, done), "reader-" + i);
      reader.start();
      readers.add(reader);
    }
    try {
      for (int round = 0; round < ROUNDS && wrong.get() == null; round++) {
        KeyValueStore<Bytes, byte[]> store = supplier.get();
        store.init(context, store);
        for (int key = 0; key < KEYS; key++) {
          store.put(Bytes.wrap(key(key)), value(key));
        }
        ReplicaHandle handle = this.handles.handle(STORE, 0);
        assertThat(handle).isNotNull();
        assertThat(handle.store()).isInstanceOf(RocksDBKeyValueStore.class);
        long enough = answered.get() + READS_PER_ROUND;
        current.set(handle);
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> answered.get() >= enough || wrong.get() != null);
        store.close();
      }
    } finally {
      done.set(true);
      for (Thread reader : readers) {
        reader.join(Duration.ofSeconds(20).toMillis());
      }
    }
    assertThat(wrong.get()).isNull();
    assertThat(readers).noneMatch(Thread::isAlive);
    assertThat(answered.get()).isGreaterThanOrEqualTo((long) ROUNDS * READS_PER_ROUND);
    assertThat(refused.get()).as("reads of a closed store, refused").isPositive();
  }

  /** Reads random keys through the current handle until done, noting the first wrong answer. */
  private static void read(
      AtomicReference<@Nullable ReplicaHandle> current,
      AtomicLong answered,
      AtomicLong refused,
      AtomicReference<@Nullable Throwable> wrong,
      AtomicBoolean done) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    while (!done.get() && wrong.get() == null) {
      ReplicaHandle handle = current.get();
      if (handle == null) {
        Thread.yield();
        continue;
      }
      int key = random.nextInt(KEYS);
      try {
        byte[] stored = handle.get(key(key));
        if (Arrays.equals(stored, value(key))) {
          answered.incrementAndGet();
        } else {
          wrong.compareAndSet(
              null,
              new AssertionError(
                  "key " + key + " answered " + Arrays.toString(stored) + ", not its value"));
        }
      } catch (InvalidStateStoreException ex) {
        refused.incrementAndGet();
        Thread.yield();
      } catch (Throwable ex) {
        wrong.compareAndSet(null, ex);
      }
    }
  }

  private static byte[] key(int key) {
    return ("key-" + key).getBytes(StandardCharsets.UTF_8);
  }

  /** Kafka Streams' 8-byte timestamp, then a value that only {@code key} has. */
  private static byte[] value(int key) {
    byte[] text = ("value-of-" + key + "-".repeat(key % 40)).getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(8 + text.length).putLong(key * 1_000L).put(text).array();
  }
}
