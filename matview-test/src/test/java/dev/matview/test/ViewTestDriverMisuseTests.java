package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.matview.topology.InvalidViewException;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each misuse of the driver fails at once, saying what was wrong and how to fix it. */
class ViewTestDriverMisuseTests extends DriverTestSupport {

  @BeforeEach
  void startDriver() {
    this.driver =
        ViewTestDriver.builder()
            .view("per-customer", perCustomer())
            .view("per-minute", perMinute(Duration.ZERO))
            .build();
  }

  @Test
  void namesTheViewsThereAreWhenAskedForAnUnknownOne() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.driver.view("per-planet", String.class, Long.class))
        .withMessage(
            "There is no view named 'per-planet'; the views are [per-customer, per-minute]: use"
                + " the name given in @MaterializedView, or the bean name when it gives none");
  }

  @Test
  void namesTheViewsKeyAndValueTypesWhenAskedForOthers() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.driver.view("per-customer", Long.class, Long.class))
        .withMessage(
            "View 'per-customer' has keys of type java.lang.String, not java.lang.Long: pass as"
                + " its key type String");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.driver.view("per-customer", String.class, Integer.class))
        .withMessage(
            "View 'per-customer' has values of type java.lang.Long, not java.lang.Integer: pass"
                + " as its value type Long");
    assertThat(this.driver.view("per-customer", String.class, Number.class).get("nobody")).isNull();
  }

  @Test
  void namesTheSourceTopicsAndTheirTypesWhenAskedForOthers() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.driver.sourceTopic("sales", String.class, Order.class))
        .withMessage(
            "No view reads topic 'sales'; the views read [orders]: pipe into one of those");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.driver.sourceTopic("orders", Long.class, Order.class))
        .withMessage(
            "The views of topic 'orders' read record keys of type java.lang.String, not"
                + " java.lang.Long: pass String.class as the key type");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.driver.sourceTopic("orders", String.class, String.class))
        .withMessage(
            "The views of topic 'orders' read values of type [dev.matview.test.Order], not"
                + " java.lang.String: pass one of those, or pipe bytes with pipeRaw");
  }

  @Test
  void saysHowToReadATableAndAWindowedView() {
    TestView<String, Long> table = this.driver.view("per-customer", String.class, Long.class);
    TestView<String, Long> windowed = this.driver.view("per-minute", String.class, Long.class);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> windowed.get("o-1"))
        .withMessage(
            "View 'per-minute' is a windowed view: read the key's windows with windows(key)");
    assertThatIllegalArgumentException()
        .isThrownBy(windowed::scan)
        .withMessage(
            "View 'per-minute' is a windowed view: read each key's windows with windows(key)");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> table.windows("alice"))
        .withMessage("View 'per-customer' is a table: read the key's value with get(key)");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> windowed.windows("o-1", T0, T0.minusMillis(1)))
        .withMessage(
            "'from' (2026-03-01T10:00:00Z) must not be after 'to' (2026-03-01T09:59:59.999Z)");
  }

  @Test
  void refusesANullValueAndSaysHowToPipeATombstone() {
    TestSourceTopic<String, Order> orders =
        this.driver.sourceTopic("orders", String.class, Order.class);
    assertThatNullPointerException()
        .isThrownBy(() -> orders.pipe("o-1", null, T0))
        .withMessage("value must not be null; pipe a tombstone with pipeRaw(key, null, timestamp)");
  }

  @Test
  void refusesToMoveTheWallClockBack() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.driver.advanceWallClockTime(Duration.ofSeconds(-1)))
        .withMessage("The wall clock only moves ahead; PT-1S is negative");
  }

  @Test
  void saysThatAClosedDriverCannotBeUsed() {
    TestSourceTopic<String, Order> orders =
        this.driver.sourceTopic("orders", String.class, Order.class);
    TestView<String, Long> view = this.driver.view("per-customer", String.class, Long.class);
    this.driver.close();
    this.driver.close();
    String closed =
        "The ViewTestDriver is closed: build a new one for each test, and close it after";
    assertThatIllegalStateException()
        .isThrownBy(() -> orders.pipe("o-1", Order.of("alice", 1, "1.00", T0)))
        .withMessage(closed);
    assertThatIllegalStateException().isThrownBy(() -> view.get("alice")).withMessage(closed);
    assertThatIllegalStateException()
        .isThrownBy(() -> this.driver.view("per-customer", String.class, Long.class))
        .withMessage(closed);
    assertThatIllegalStateException()
        .isThrownBy(() -> this.driver.sourceTopic("orders", String.class, Order.class))
        .withMessage(closed);
    assertThatIllegalStateException()
        .isThrownBy(() -> this.driver.advanceWallClockTime(Duration.ZERO))
        .withMessage(closed);
  }

  @Test
  void refusesABuilderWithoutViewsOrWithAViewAddedTwice() {
    assertThatIllegalStateException()
        .isThrownBy(() -> ViewTestDriver.builder().build())
        .withMessage(
            "A ViewTestDriver needs at least one view: add views with view(name, definition) or"
                + " viewsOf(configuration classes)");
    ViewTestDriver.Builder builder =
        ViewTestDriver.builder().view("per-order", Views.from("orders", Order.class).count());
    assertThatIllegalArgumentException()
        .isThrownBy(() -> builder.view("per-order", Views.from("orders", Order.class).count()))
        .withMessage("View 'per-order' is added twice: give each view a name of its own");
  }

  @Test
  void refusesSettingsOutOfRange() {
    ViewTestDriver.Builder builder = ViewTestDriver.builder();
    assertThatIllegalArgumentException()
        .isThrownBy(() -> builder.maxEventTimeAhead(Duration.ofSeconds(-1)))
        .withMessage("maxEventTimeAhead must not be negative, was PT-1S");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> builder.applicationId(" "))
        .withMessage("applicationId must not be blank");
    assertThatIllegalArgumentException()
        .isThrownBy(builder::viewsOf)
        .withMessage("viewsOf needs the configuration classes that declare the views");
  }

  @Test
  void refusesAViewThatCannotWorkAsTheStarterDoesAtStartUp() {
    ViewTestDriver.Builder builder =
        ViewTestDriver.builder()
            .view(
                "sessions",
                Views.from("orders", Order.class)
                    .windowedBy(ViewWindow.session(Duration.ofMinutes(5)))
                    .aggregate(Long.class, new Picky()));
    assertThatThrownBy(builder::build)
        .isInstanceOf(InvalidViewException.class)
        .hasMessageContaining("implement MergeableAggregation instead of Aggregation");
  }
}
