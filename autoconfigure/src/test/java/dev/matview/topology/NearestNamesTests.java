package dev.matview.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which known names come near enough to one that matched none to be offered instead. */
class NearestNamesTests {

  @Test
  void countsAnEditASwapOfNeighboursAndACaseOrSeparatorDifferenceAsOneEach() {
    assertThat(NearestNames.distance("orders", "order", 2)).isEqualTo(1);
    assertThat(NearestNames.distance("orders", "orderss", 2)).isEqualTo(1);
    assertThat(NearestNames.distance("orders", "orkers", 2)).isEqualTo(1);
    assertThat(NearestNames.distance("orders", "odrers", 2)).isEqualTo(1);
    assertThat(NearestNames.distance("orders", "ORDERS", 2)).isEqualTo(1);
    assertThat(NearestNames.distance("order-events", "order_events", 2)).isEqualTo(1);
    assertThat(NearestNames.distance("orders", "odrerz", 2)).isEqualTo(2);
    assertThat(NearestNames.distance("orders", "orders-per-customer", 2)).isEqualTo(3);
  }

  @Test
  void offersTheNamesAFewEditsAwayOrContainingTheNameNearestFirstAndAtMostThree() {
    List<String> known =
        List.of(
            "matview.web.max-page-size",
            "matview.web.max-batch-size",
            "matview.web.max-batch-body",
            "matview.records.max-decimal-scale");
    assertThat(NearestNames.of("matview.web.max-page-sise", known))
        .containsExactly("matview.web.max-page-size");
    assertThat(NearestNames.of("matview.web.max-batch", known))
        .containsExactly("matview.web.max-batch-body", "matview.web.max-batch-size");
    assertThat(NearestNames.of("matview.web", known)).hasSize(NearestNames.MOST);
    assertThat(NearestNames.of("rocksdb", known)).isEmpty();
  }
}
