package dev.matview.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.matview.disk.StateDirSpace;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests for {@link DiskPressure}. */
class DiskPressureTests {

  @TempDir Path stateDir;

  @Test
  void reportsNoPressureWhileTheFreeSpaceIsAtLeastTheBound() {
    DiskPressure.Report report = new DiskPressure(new StateDirSpace(this.stateDir), 1).report();
    assertThat(report.low()).isFalse();
    assertThat(report.reason()).isNull();
    assertThat(report.freeBytes()).isPositive();
    assertThat(report.minFreeBytes()).isEqualTo(1);
    assertThat(report.stateDir()).isEqualTo(this.stateDir.toAbsolutePath().toString());
  }

  @Test
  void namesTheFreeSpaceTheStateDirTheBoundAndTheFixWhenTheFreeSpaceIsUnderTheBound() {
    long free = this.stateDir.toFile().getUsableSpace();
    long bound = free + 1024L * 1024 * 1024 * 1024;
    DiskPressure.Report report = new DiskPressure(new StateDirSpace(this.stateDir), bound).report();
    assertThat(report.low()).isTrue();
    assertThat(report.reason())
        .isEqualTo(
            "Only "
                + DiskPressure.readable(report.freeBytes())
                + " free on the disk of the state dir "
                + this.stateDir.toAbsolutePath()
                + ", less than matview.health.min-free-disk="
                + DiskPressure.readable(bound)
                + ": RocksDB cannot write when it is full, and Kafka Streams then fails. Free"
                + " space on that disk, give it more, or move spring.kafka.streams.state-dir to a"
                + " larger one");
  }

  @Test
  void neverReportsPressureWithABoundOfZero() {
    assertThat(new DiskPressure(new StateDirSpace(this.stateDir), 0).report().low()).isFalse();
  }

  @Test
  void refusesANegativeBound() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new DiskPressure(new StateDirSpace(this.stateDir), -1))
        .withMessageContaining("at least 0");
  }

  @Test
  void writesBytesInTheLargestWholeUnit() {
    assertThat(DiskPressure.readable(0)).isEqualTo("0B");
    assertThat(DiskPressure.readable(1023)).isEqualTo("1023B");
    assertThat(DiskPressure.readable(1024)).isEqualTo("1KB");
    assertThat(DiskPressure.readable(1536)).isEqualTo("1.5KB");
    assertThat(DiskPressure.readable(512L * 1024 * 1024)).isEqualTo("512MB");
    assertThat(DiskPressure.readable(1024L * 1024 * 1024)).isEqualTo("1GB");
    assertThat(DiskPressure.readable(1288490189L)).isEqualTo("1.2GB");
    assertThat(DiskPressure.readable(Long.MAX_VALUE)).isEqualTo("8388608TB");
  }
}
