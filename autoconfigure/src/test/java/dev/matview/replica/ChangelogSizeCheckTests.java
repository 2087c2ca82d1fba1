package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stores of {@link StoreHandles}, on real RocksDB, hand each update's key and value to their
 * {@link ChangelogSizeCheck} as the changelog gets them, and keep nothing it refuses.
 */
class ChangelogSizeCheckTests {

  private static final Bytes KEY = Bytes.wrap("alice".getBytes(StandardCharsets.UTF_8));

  private static final Bytes OTHER = Bytes.wrap("bob".getBytes(StandardCharsets.UTF_8));

  @TempDir Path stateDir;

  private final StoreHandles handles = new StoreHandles();

  private final List<String> checked = new ArrayList<>();

  /** Notes each update's lengths and refuses values of more than 10 bytes. */
  private final ChangelogSizeCheck atMostTen =
      (keyBytes, valueBytes) -> {
        this.checked.add(keyBytes + "+" + valueBytes);
        if (valueBytes > 10) {
          throw new IllegalArgumentException("too large");
        }
      };

  @Test
  void aTableStoreChecksKeyAndValueWithoutItsTimestampAndKeepsNoRefusedUpdate() {
    KeyValueStore<Bytes, byte[]> store = this.handles.keyValueStore("table", this.atMostTen).get();
    store.init(StateStoreContexts.of(this.stateDir), store);
    try {
      store.put(KEY, timestamped(10));
      assertThatIllegalArgumentException().isThrownBy(() -> store.put(KEY, timestamped(11)));
      assertThatIllegalArgumentException()
          .isThrownBy(
              () ->
                  store.putAll(
                      List.of(
                          KeyValue.pair(OTHER, timestamped(1)),
                          KeyValue.pair(KEY, timestamped(11)))));
      store.put(OTHER, null);
      assertThat(this.checked).containsExactly("5+10", "5+11", "3+1", "5+11");
      assertThat(store.get(KEY)).isEqualTo(timestamped(10));
      assertThat(store.get(OTHER)).as("none of a refused batch").isNull();
    } finally {
      store.close();
    }
  }

  /** Kafka Streams' 8-byte timestamp, then a value of {@code bytes}. */
  private static byte[] timestamped(int bytes) {
    return ByteBuffer.allocate(Long.BYTES + bytes).putLong(42L).array();
  }
}
