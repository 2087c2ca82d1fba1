package dev.matview.metrics;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * How many lookups each route served, and how long they took, in time buckets over the last few
 * minutes; recording is lock-free and allocates nothing, at the cost of a lookup that lands as its
 * bucket is reused counting nowhere.
 */
public final class LookupActivity {

  /** The routes counted, in the order their buckets are laid out. */
  public static final List<String> ROUTES = List.of("local", "forwarded", "standby");

  /** The default width of one bucket. */
  public static final Duration DEFAULT_BUCKET = Duration.ofSeconds(5);

  /** The default number of complete buckets kept: five minutes of five-second buckets. */
  public static final int DEFAULT_BUCKETS = 60;

  private final LongSupplier nanoTime;

  private final long bucketNanos;

  private final int buckets;

  private final AtomicLongArray stamps;

  private final AtomicLongArray counts;

  private final AtomicLongArray nanos;

  /** Five minutes of five-second buckets on the system's clock. */
  public LookupActivity() {
    this(System::nanoTime, DEFAULT_BUCKET, DEFAULT_BUCKETS);
  }

  /** {@code buckets} complete buckets of {@code bucket} each, on the clock {@code nanoTime}. */
  public LookupActivity(LongSupplier nanoTime, Duration bucket, int buckets) {
    this.nanoTime = nanoTime;
    this.bucketNanos = bucket.toNanos();
    this.buckets = buckets + 1; // the one filling now
    int slots = ROUTES.size() * this.buckets;
    this.stamps = new AtomicLongArray(slots);
    this.counts = new AtomicLongArray(slots);
    this.nanos = new AtomicLongArray(slots);
    for (int slot = 0; slot < slots; slot++) {
      this.stamps.set(slot, Long.MIN_VALUE);
    }
  }

  /** Counts one lookup served by {@code route} in {@code nanos}; other routes are not counted. */
  public void record(String route, long nanos) {
    int index = ROUTES.indexOf(route);
    if (index < 0) {
      return;
    }
    long bucket = this.nanoTime.getAsLong() / this.bucketNanos;
    int slot = index * this.buckets + (int) Math.floorMod(bucket, (long) this.buckets);
    long stamp = this.stamps.get(slot);
    if (stamp != bucket && this.stamps.compareAndSet(slot, stamp, bucket)) {
      this.counts.set(slot, 0);
      this.nanos.set(slot, 0);
    }
    this.counts.incrementAndGet(slot);
    this.nanos.addAndGet(slot, nanos);
  }

  /** The width of one bucket. */
  public Duration bucket() {
    return Duration.ofNanos(this.bucketNanos);
  }

  /** The complete buckets of each route, oldest first, the one filling now left out. */
  public Map<String, List<Bucket>> history() {
    long current = this.nanoTime.getAsLong() / this.bucketNanos;
    Map<String, List<Bucket>> history = new LinkedHashMap<>();
    for (int index = 0; index < ROUTES.size(); index++) {
      Bucket[] route = new Bucket[this.buckets - 1];
      for (int age = route.length; age >= 1; age--) {
        long bucket = current - age;
        int slot = index * this.buckets + (int) Math.floorMod(bucket, (long) this.buckets);
        route[route.length - age] =
            (this.stamps.get(slot) == bucket)
                ? new Bucket(this.counts.get(slot), this.nanos.get(slot))
                : Bucket.EMPTY;
      }
      history.put(ROUTES.get(index), List.of(route));
    }
    return history;
  }

  /** How many lookups of one route one bucket saw, and how long they took together. */
  public record Bucket(long count, long nanos) {

    static final Bucket EMPTY = new Bucket(0, 0);
  }
}
