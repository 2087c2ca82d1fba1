package dev.matview.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.view.ViewWindow;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class StorePlanTests {

  @Test
  void aTableViewOpensOneStorePerPartition() {
    assertThat(StorePlan.storesPerPartition(null)).isEqualTo(1);
  }

  @Test
  void aWindowedViewOpensTheLiveSegmentsOfHalfItsRetention() {
    ViewWindow minutes = ViewWindow.tumbling(Duration.ofMinutes(1));
    assertThat(minutes.effectiveRetention()).isEqualTo(Duration.ofDays(1));
    assertThat(StorePlan.storesPerPartition(minutes)).isEqualTo(3);
    assertThat(StorePlan.storesPerPartition(ViewWindow.session(Duration.ofMinutes(5))))
        .isEqualTo(3);
  }

  @Test
  void segmentsAreAtLeastAMinuteLong() {
    ViewWindow shortLived =
        ViewWindow.tumbling(Duration.ofSeconds(10)).withRetention(Duration.ofSeconds(70));
    assertThat(StorePlan.storesPerPartition(shortLived)).isEqualTo(2);
    ViewWindow longLived =
        ViewWindow.tumbling(Duration.ofSeconds(10)).withRetention(Duration.ofMinutes(10));
    assertThat(StorePlan.storesPerPartition(longLived)).isEqualTo(3);
  }
}
