package dev.matview.sample;

import static dev.matview.processes.http.HttpProbe.encode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.HttpProbe.Answer;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.RecursiveComparisonAssert;
import org.awaitility.Awaitility;
import org.awaitility.core.ThrowingRunnable;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Places orders and reads the sample app's views over HTTP, as a client of the app would. */
final class OrderViewsClient {

  static final String ORDERS_PER_CUSTOMER = "orders-per-customer";

  static final String REVENUE_PER_CUSTOMER = "revenue-per-customer";

  static final String ORDERS_PER_CUSTOMER_PER_MINUTE = "orders-per-customer-per-minute";

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static final Duration POLL_INTERVAL = Duration.ofMillis(200);

  private static final JsonMapper json =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  private final HttpProbe http;

  OrderViewsClient(int port) {
    this.http = HttpProbe.localhost(port).withTimeout(TIMEOUT);
  }

  /** Retries {@code assertion} until it passes, for at most a minute. */
  static void eventually(ThrowingRunnable assertion) {
    Awaitility.await().atMost(TIMEOUT).pollInterval(POLL_INTERVAL).untilAsserted(assertion);
  }

  /** Starts an assertion that compares revenues field by field and amounts numerically. */
  static RecursiveComparisonAssert<?> assertThatRevenue(Revenue actual) {
    return assertThat(actual)
        .usingRecursiveComparison()
        .withComparatorForType(BigDecimal::compareTo, BigDecimal.class);
  }

  /** A revenue of {@code orders} orders with the given total and largest amount. */
  static Revenue revenue(long orders, String total, String max) {
    return new Revenue(orders, new BigDecimal(total), new BigDecimal(max));
  }

  /** Places an order through {@code POST /orders} and checks that it was accepted. */
  void placeOrder(String customerId, String amount, Instant ts) {
    String order =
        json.writeValueAsString(
            Map.of("customerId", customerId, "amount", new BigDecimal(amount), "ts", ts));
    Answer response = postOrder(order);
    assertThat(response.status()).as("POST /orders %s: %s", order, response.body()).isEqualTo(202);
  }

  /** Posts {@code json} to {@code POST /orders} as it is. */
  Answer postOrder(String json) {
    return this.http.post("/orders", json);
  }

  /** The number of orders the {@code orders-per-customer} view holds for {@code customerId}. */
  long orders(String customerId) {
    return found(key(ORDERS_PER_CUSTOMER, customerId)).longValue();
  }

  /** The revenue the {@code revenue-per-customer} view holds for {@code customerId}. */
  Revenue revenue(String customerId) {
    return json.treeToValue(found(key(REVENUE_PER_CUSTOMER, customerId)), Revenue.class);
  }

  /** The one-minute windows of {@code customerId} whose start lies in [from, to]. */
  List<CountWindow> ordersPerMinute(String customerId, Instant from, Instant to) {
    Answer response =
        windows(ORDERS_PER_CUSTOMER_PER_MINUTE, customerId, from.toString(), to.toString());
    assertThat(response.status())
        .as("windows of %s: %s", customerId, response.body())
        .isEqualTo(200);
    List<CountWindow> windows = new ArrayList<>();
    for (JsonNode window : response.json().required("windows")) {
      windows.add(
          new CountWindow(
              Instant.parse(window.required("start").stringValue()),
              Instant.parse(window.required("end").stringValue()),
              window.required("value").longValue()));
    }
    return windows;
  }

  /** {@code GET /views}. */
  Answer views() {
    return this.http.get("/views");
  }

  /** {@code GET /v3/api-docs}, the OpenAPI document springdoc serves. */
  Answer apiDocs() {
    return this.http.get("/v3/api-docs");
  }

  /** {@code GET /actuator/matviews}. */
  Answer matviews() {
    return this.http.get("/actuator/matviews");
  }

  /** {@code GET /views/{view}/keys/{key}}. */
  Answer key(String view, String key) {
    return this.http.get(keyPath(view, key));
  }

  /** {@code GET /views/{view}/keys/{key}?after=}, answered once that record is in the view. */
  Answer keyAfter(String view, String key, String after) {
    return this.http.get(keyPath(view, key) + "?after=" + encode(after));
  }

  /** {@code GET /views/{view}/keys/{key}/windows?from=&to=}, the bounds sent as written. */
  Answer windows(String view, String key, String from, String to) {
    return this.http.get(
        keyPath(view, key) + "/windows?from=" + encode(from) + "&to=" + encode(to));
  }

  private static String keyPath(String view, String key) {
    return "/views/" + encode(view) + "/keys/" + encode(key);
  }

  /** The value a lookup found, its amounts read as {@code BigDecimal}s. */
  private static JsonNode found(Answer response) {
    assertThat(response.status()).as("lookup answer %s", response.body()).isEqualTo(200);
    return json.readTree(response.body()).required("value");
  }

  /**
   * The count of one customer's orders in one window.
   *
   * @param start the window's start
   * @param end the window's end
   * @param count the orders placed in it
   */
  record CountWindow(Instant start, Instant end, long count) {

    /** The one-minute window that starts at {@code start} and holds {@code count} orders. */
    static CountWindow minute(Instant start, long count) {
      return new CountWindow(start, start.plus(Duration.ofMinutes(1)), count);
    }
  }
}
