package dev.matview.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Tests for {@link RestoreProgressLog}. */
@ExtendWith(OutputCaptureExtension.class)
class RestoreProgressLogTests {

  private final AtomicLong nanos = new AtomicLong(TimeUnit.SECONDS.toNanos(1000));

  private final RestoreProgressLog log =
      new RestoreProgressLog(this.nanos::get, Duration.ofSeconds(5));

  @Test
  void describesHowFarARestoreHasComeHowFastAndHowLongItHasLeft() {
    assertThat(RestoreProgressLog.describe(lag(100, 600, 1100, 250.4, Duration.ofMillis(1001))))
        .isEqualTo(
            "Restoring view 'orders' partition 3: 50% (500 of 1000 offsets), 250 records/s,"
                + " about 2s left");
  }

  @Test
  void saysWhenTheTimeLeftIsNotKnownAndCallsAnEmptyRestoreDone() {
    assertThat(RestoreProgressLog.describe(lag(40, 40, 40, 0, null)))
        .isEqualTo(
            "Restoring view 'orders' partition 3: 100% (0 of 0 offsets), 0 records/s,"
                + " time left unknown");
  }

  @Test
  void logsAPartitionsProgressOnItsFirstBatchThenOncePerInterval(CapturedOutput output) {
    PartitionProgress progress =
        new PartitionProgress("orders", 3, PartitionLag.Role.ACTIVE, 0, 1000, this.nanos.get());
    progress.applied(100, 100, this.nanos.get());
    this.log.restored(progress);
    progress.applied(200, 100, this.nanos.get());
    this.log.restored(progress);
    this.nanos.addAndGet(TimeUnit.SECONDS.toNanos(5));
    progress.applied(300, 100, this.nanos.get());
    this.log.restored(progress);
    assertThat(output)
        .contains("(100 of 1000 offsets)")
        .doesNotContain("(200 of 1000 offsets)")
        .contains("(300 of 1000 offsets)");
  }

  @Test
  void logsARestoreThatMovedToAnotherInstance(CapturedOutput output) {
    this.log.suspended("orders", 3, 700);
    assertThat(output)
        .contains(
            "Stopped restoring view 'orders' partition 3 after 700 records: it moved to another"
                + " instance");
  }

  private static PartitionLag lag(
      long start, long current, long end, double recordsPerSecond, @Nullable Duration eta) {
    return new PartitionLag(
        "orders",
        3,
        PartitionLag.Role.ACTIVE,
        start,
        current,
        end,
        end - current,
        current - start,
        recordsPerSecond,
        eta);
  }
}
