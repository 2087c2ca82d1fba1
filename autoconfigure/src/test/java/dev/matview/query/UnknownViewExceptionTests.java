package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** An unknown view's problem names every view when there are few, else the nearest few. */
class UnknownViewExceptionTests {

  private static final List<String> MANY =
      List.of(
          "orders-per-customer",
          "orders-per-shop",
          "revenue-per-customer",
          "revenue-per-shop",
          "orders-per-customer-per-minute",
          "returns-per-customer",
          "stock-per-item");

  @Test
  void namesEveryViewNearestFirstWhenThereAreFew() {
    UnknownViewException ex =
        UnknownViewException.among("revenue", List.of("orders-per-customer", "revenue-per-shop"));
    assertThat(ex.getNearest()).containsExactly("revenue-per-shop", "orders-per-customer");
    assertThat(ex)
        .hasMessage(
            "There is no view named 'revenue'; the views are 'revenue-per-shop' and"
                + " 'orders-per-customer'");
  }

  @Test
  void asksWhetherTheNearestViewsWereMeantAmongMany() {
    UnknownViewException ex = UnknownViewException.among("order-per-custmer", MANY);
    assertThat(ex.getNearest()).containsExactly("orders-per-customer");
    assertThat(ex)
        .hasMessage(
            "There is no view named 'order-per-custmer'; did you mean 'orders-per-customer'? GET"
                + " the views' base path to list all 7");
    assertThat(UnknownViewException.among("revenue", MANY).getNearest())
        .containsExactly("revenue-per-shop", "revenue-per-customer");
  }

  @Test
  void saysSoWhenNoViewIsNearOrThereIsNone() {
    UnknownViewException far = UnknownViewException.among("x".repeat(5_000), MANY);
    assertThat(far.getNearest()).isEmpty();
    assertThat(far)
        .hasMessageEndingWith(", nor one near it; GET the views' base path to list all 7");
    assertThat(UnknownViewException.among("orders", List.of()))
        .hasMessage("There is no view named 'orders': this application declares no views");
  }
}
