package dev.matview.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.metrics.LookupActivity.Bucket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Tests for {@link LookupActivity}. */
class LookupActivityTests {

  private static final Duration BUCKET = Duration.ofSeconds(5);

  private final AtomicLong nanos = new AtomicLong(Duration.ofHours(1).toNanos());

  private final LookupActivity activity = new LookupActivity(this.nanos::get, BUCKET, 3);

  @Test
  void countsEachRoutesLookupsAndTheirTimeInTheBucketOfTheirTime() {
    this.activity.record("local", 1_000);
    this.activity.record("local", 3_000);
    this.activity.record("standby", 5_000);
    passBuckets(1);
    this.activity.record("forwarded", 7_000);
    passBuckets(1);
    assertThat(this.activity.history().get("local"))
        .containsExactly(Bucket.EMPTY, new Bucket(2, 4_000), Bucket.EMPTY);
    assertThat(this.activity.history().get("forwarded"))
        .containsExactly(Bucket.EMPTY, Bucket.EMPTY, new Bucket(1, 7_000));
    assertThat(this.activity.history().get("standby"))
        .containsExactly(Bucket.EMPTY, new Bucket(1, 5_000), Bucket.EMPTY);
  }

  @Test
  void leavesOutTheBucketFillingNow() {
    this.activity.record("local", 1_000);
    assertThat(this.activity.history().get("local")).containsOnly(Bucket.EMPTY);
  }

  @Test
  void forgetsBucketsOlderThanItKeepsAndStartsTheirSlotsAfresh() {
    this.activity.record("local", 1_000);
    passBuckets(4);
    this.activity.record("local", 2_000);
    passBuckets(1);
    assertThat(this.activity.history().get("local"))
        .containsExactly(Bucket.EMPTY, Bucket.EMPTY, new Bucket(1, 2_000));
  }

  @Test
  void ignoresLookupsThatNoReplicaServed() {
    this.activity.record("none", 1_000);
    passBuckets(1);
    assertThat(this.activity.history())
        .containsOnlyKeys("local", "forwarded", "standby")
        .allSatisfy((route, buckets) -> assertThat(buckets).containsOnly(Bucket.EMPTY));
  }

  @Test
  void tellsTheWidthOfItsBuckets() {
    assertThat(this.activity.bucket()).isEqualTo(BUCKET);
  }

  private void passBuckets(int buckets) {
    this.nanos.addAndGet(BUCKET.toNanos() * buckets);
  }
}
