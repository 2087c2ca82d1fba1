package dev.matview.conformance;

import dev.matview.conformance.ConformanceApp.Event;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * The records the matrix publishes, generated from a fixed seed: per topic and partition, a list in
 * publishing order. Time mostly moves forward, with records out of order within grace, records late
 * beyond grace (some late for only some hopping windows), gaps longer than a session's inactivity,
 * and at the end of each partition two sessions of one key and a record that bridges them.
 *
 * <p>Every key a record carries, in any of its fields, lies in the record's partition: a view that
 * groups by a field therefore reads each partition of its repartition topic exactly as the source
 * partition was published, in the same order, so stream time per partition is known.
 */
final class DataSet {

  static final int PARTITIONS = 2;

  static final int KEYS_PER_PARTITION = 3;

  static final int RECORDS_PER_PARTITION = 60;

  /** The source topics and the type of their record keys. */
  static final Map<String, KeyKind> TOPICS =
      Map.of(
          ConformanceApp.BY_NAME, KeyKind.STRING,
          ConformanceApp.BY_NUMBER, KeyKind.LONG,
          ConformanceApp.BY_ID, KeyKind.UUID,
          ConformanceApp.BY_PAIR, KeyKind.PAIR);

  private final Instant start;

  private final Map<KeyKind, List<List<Object>>> keys;

  private final Map<KeyKind, Object> absent;

  private final Map<String, List<List<Event>>> records;

  private DataSet(
      Instant start,
      Map<KeyKind, List<List<Object>>> keys,
      Map<KeyKind, Object> absent,
      Map<String, List<List<Event>>> records) {
    this.start = start;
    this.keys = keys;
    this.absent = absent;
    this.records = records;
  }

  /** The records of {@code seed}, with time starting at {@code start}. */
  static DataSet generate(long seed, Instant start) {
    Map<KeyKind, List<List<Object>>> keys = new EnumMap<>(KeyKind.class);
    Map<KeyKind, Object> absent = new EnumMap<>(KeyKind.class);
    for (KeyKind kind : KeyKind.values()) {
      List<List<Object>> byPartition = new ArrayList<>();
      for (int p = 0; p < PARTITIONS; p++) {
        byPartition.add(new ArrayList<>());
      }
      int n = 0;
      while (byPartition.stream().anyMatch(list -> list.size() < KEYS_PER_PARTITION)) {
        Object key = kind.nth(n++);
        List<Object> list = byPartition.get(kind.partition(key, PARTITIONS));
        if (list.size() < KEYS_PER_PARTITION) {
          list.add(key);
        }
      }
      keys.put(kind, byPartition);
      absent.put(kind, kind.nth(n + 1000));
    }
    Random random = new Random(seed);
    Map<String, List<List<Event>>> records = new LinkedHashMap<>();
    for (String topic : List.of(TOPICS.keySet().stream().sorted().toArray(String[]::new))) {
      List<List<Event>> partitions = new ArrayList<>();
      for (int p = 0; p < PARTITIONS; p++) {
        partitions.add(partition(random, keys, p, start.plusSeconds(13L * p)));
      }
      records.put(topic, partitions);
    }
    return new DataSet(start, keys, absent, records);
  }

  private static List<Event> partition(
      Random random, Map<KeyKind, List<List<Object>>> keys, int p, Instant first) {
    List<Event> events = new ArrayList<>();
    Instant clock = first;
    for (int i = 0; i < RECORDS_PER_PARTITION; i++) {
      int dice = random.nextInt(100);
      Instant at;
      if (dice < 65) {
        clock = clock.plusSeconds(1 + random.nextInt(25));
        at = clock;
      } else if (dice < 80) {
        at = clock.minusSeconds(1 + random.nextInt(15));
      } else if (dice < 94) {
        at = clock.minusSeconds(40 + random.nextInt(300));
      } else {
        clock = clock.plusSeconds(150 + random.nextInt(60));
        at = clock;
      }
      events.add(event(random, keys, p, random.nextInt(KEYS_PER_PARTITION), at));
    }
    clock = clock.plus(Duration.ofMinutes(5));
    events.add(event(random, keys, p, 0, clock));
    clock = clock.plus(Duration.ofMinutes(3));
    events.add(event(random, keys, p, 0, clock));
    events.add(event(random, keys, p, 0, clock.minusSeconds(90)));
    events.add(event(random, keys, p, 1, clock.minus(Duration.ofMinutes(10))));
    events.add(event(random, keys, p, 2, clock.minusSeconds(10)));
    return events;
  }

  private static Event event(
      Random random, Map<KeyKind, List<List<Object>>> keys, int p, int index, Instant at) {
    return new Event(
        (String) keys.get(KeyKind.STRING).get(p).get(index),
        (Long) keys.get(KeyKind.LONG).get(p).get(index),
        (UUID) keys.get(KeyKind.UUID).get(p).get((index + random.nextInt(2)) % KEYS_PER_PARTITION),
        (ConformanceApp.Pair) keys.get(KeyKind.PAIR).get(p).get(random.nextInt(KEYS_PER_PARTITION)),
        1 + random.nextInt(9),
        BigDecimal.valueOf(100 + random.nextInt(9900), 2),
        at);
  }

  /** The field of {@code event} that holds its key of {@code kind}. */
  static Object field(KeyKind kind, Event event) {
    return switch (kind) {
      case STRING -> event.name();
      case LONG -> event.number();
      case UUID -> event.id();
      case PAIR -> event.pair();
    };
  }

  /** The earliest event time the data set may hold. */
  Instant start() {
    return this.start.minus(Duration.ofHours(1));
  }

  /** A bound after every event time of the data set. */
  Instant end() {
    return this.start.plus(Duration.ofHours(3));
  }

  /** A key of {@code kind} that no record carries. */
  Object absent(KeyKind kind) {
    return this.absent.get(kind);
  }

  /** The records of {@code topic}'s partition {@code p}, in publishing order. */
  List<Event> records(String topic, int p) {
    return this.records.get(topic).get(p);
  }

  /** Every topic's records, per partition in publishing order. */
  Map<String, List<List<Event>>> records() {
    return this.records;
  }
}
