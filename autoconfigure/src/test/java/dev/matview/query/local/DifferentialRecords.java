package dev.matview.query.local;

import dev.matview.query.local.DifferentialViews.Item;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Random source records for the differential test: many keys, event times that mostly move on and
 * now and then lie far behind (many of them later than the views' grace), and tombstones.
 */
final class DifferentialRecords {

  /** How many keys the records have. */
  static final int KEYS = 40;

  /** How far event time moves on at most from one record to the next. */
  private static final long STEP_MILLIS = Duration.ofMinutes(7).toMillis();

  /** How far behind a late record lies at most. */
  private static final long LATE_MILLIS = Duration.ofHours(4).toMillis();

  private final Random random;

  private final JsonMapper mapper;

  private long streamTime;

  /** Records from {@code start} on, drawn from {@code random}. */
  DifferentialRecords(Random random, JsonMapper mapper, long start) {
    this.random = random;
    this.mapper = mapper;
    this.streamTime = start;
  }

  /** One source record: its key, its JSON value or none (a tombstone) and its event time. */
  record Input(String key, @Nullable String value, long timestamp) {}

  /** Every key a record may have. */
  static List<String> keys() {
    List<String> keys = new ArrayList<>();
    for (int n = 0; n < KEYS; n++) {
      keys.add(key(n));
    }
    return keys;
  }

  private static String key(int n) {
    return String.format("k%02d", n);
  }

  /** The next {@code count} records. */
  List<Input> next(int count) {
    List<Input> records = new ArrayList<>(count);
    for (int n = 0; n < count; n++) {
      long timestamp;
      if (this.random.nextInt(100) < 15) {
        timestamp = Math.max(0, this.streamTime - this.random.nextLong(LATE_MILLIS));
      } else {
        this.streamTime += this.random.nextLong(STEP_MILLIS);
        timestamp = this.streamTime;
      }
      String value =
          (this.random.nextInt(100) < 8)
              ? null
              : this.mapper.writeValueAsString(new Item(this.random.nextInt(13) - 3));
      records.add(new Input(key(this.random.nextInt(KEYS)), value, timestamp));
    }
    return records;
  }

  /** The event time of the latest record so far. */
  long streamTime() {
    return this.streamTime;
  }
}
