package dev.matview.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tests for {@link PartitionLags}. */
class PartitionLagsTests {

  private final PartitionLags lags = new PartitionLags();

  private final List<String> heard = new ArrayList<>();

  @Test
  void listsTrackedPartitionsByStoreThenPartition() {
    this.lags.track("sales", 1, active("sales", 1));
    this.lags.track("orders", 2, active("orders", 2));
    this.lags.track("orders", 0, active("orders", 0));
    assertThat(this.lags.snapshot())
        .extracting((lag) -> lag.store() + "-" + lag.partition())
        .containsExactly("orders-0", "orders-2", "sales-1");
  }

  @Test
  void tellsItsListenersOfATrackedPartitionReplacedAsDroppedThenTracked() {
    this.lags.addListener(recorder());
    this.lags.track("orders", 0, standby("orders", 0));
    this.lags.track("orders", 0, active("orders", 0));
    assertThat(this.heard)
        .containsExactly(
            "tracked orders-0 STANDBY", "dropped orders-0 STANDBY", "tracked orders-0 ACTIVE");
    assertThat(this.lags.lag("orders", 0).orElseThrow().role()).isEqualTo(PartitionLag.Role.ACTIVE);
  }

  @Test
  void dropsATrackedPartitionOnceAndSaysWhetherItWasTracked() {
    this.lags.track("orders", 0, active("orders", 0));
    this.lags.addListener(recorder());
    assertThat(this.lags.drop("orders", 0)).isTrue();
    assertThat(this.lags.drop("orders", 0)).isFalse();
    assertThat(this.heard).containsExactly("dropped orders-0 ACTIVE");
    assertThat(this.lags.lag("orders", 0)).isEmpty();
    assertThat(this.lags.progress("orders", 0)).isNull();
  }

  private RestoreLagTracker.Listener recorder() {
    return new RestoreLagTracker.Listener() {

      @Override
      public void tracked(PartitionLag partition) {
        PartitionLagsTests.this.heard.add("tracked " + describe(partition));
      }

      @Override
      public void dropped(PartitionLag partition) {
        PartitionLagsTests.this.heard.add("dropped " + describe(partition));
      }
    };
  }

  private static String describe(PartitionLag lag) {
    return lag.store() + "-" + lag.partition() + " " + lag.role();
  }

  private static PartitionProgress active(String store, int partition) {
    return new PartitionProgress(store, partition, PartitionLag.Role.ACTIVE, 0, 100, 0);
  }

  private static PartitionProgress standby(String store, int partition) {
    return new PartitionProgress(store, partition, PartitionLag.Role.STANDBY, 0, 0);
  }
}
