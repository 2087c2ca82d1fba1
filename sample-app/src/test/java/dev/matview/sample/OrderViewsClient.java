package dev.matview.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.RecursiveComparisonAssert;
import org.awaitility.Awaitility;
import org.awaitility.core.ThrowingRunnable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.util.StreamUtils;
import org.springframework.web.client.RestClient;
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

  private final RestClient http;

  OrderViewsClient(int port) {
    this.http = RestClient.create("http://localhost:" + port);
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
    Response response =
        exchange(
            this.http.post().uri("/orders").contentType(MediaType.APPLICATION_JSON).body(order));
    assertThat(response.status()).as("POST /orders %s: %s", order, response.body()).isEqualTo(202);
  }

  /** Posts {@code json} to {@code POST /orders} as it is. */
  Response postOrder(String json) {
    return exchange(
        this.http.post().uri("/orders").contentType(MediaType.APPLICATION_JSON).body(json));
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
    Response response =
        windows(ORDERS_PER_CUSTOMER_PER_MINUTE, customerId, from.toString(), to.toString());
    assertThat(response.status())
        .as("windows of %s: %s", customerId, response.body())
        .isEqualTo(200);
    List<CountWindow> windows = new ArrayList<>();
    for (JsonNode window : response.body().required("windows")) {
      windows.add(
          new CountWindow(
              Instant.parse(window.required("start").stringValue()),
              Instant.parse(window.required("end").stringValue()),
              window.required("value").longValue()));
    }
    return windows;
  }

  /** {@code GET /views}. */
  Response views() {
    return exchange(this.http.get().uri("/views"));
  }

  /** {@code GET /v3/api-docs}, the OpenAPI document springdoc serves. */
  Response apiDocs() {
    return exchange(this.http.get().uri("/v3/api-docs"));
  }

  /** {@code GET /actuator/matviews}. */
  Response matviews() {
    return exchange(this.http.get().uri("/actuator/matviews"));
  }

  /** {@code GET /views/{view}/keys/{key}}. */
  Response key(String view, String key) {
    return exchange(this.http.get().uri("/views/{view}/keys/{key}", view, key));
  }

  /** {@code GET /views/{view}/keys/{key}?after=}, answered once that record is in the view. */
  Response keyAfter(String view, String key, String after) {
    return exchange(
        this.http.get().uri("/views/{view}/keys/{key}?after={after}", view, key, after));
  }

  /** {@code GET /views/{view}/keys/{key}/windows?from=&to=}, the bounds sent as written. */
  Response windows(String view, String key, String from, String to) {
    return exchange(
        this.http
            .get()
            .uri("/views/{view}/keys/{key}/windows?from={from}&to={to}", view, key, from, to));
  }

  private static JsonNode found(Response response) {
    assertThat(response.status()).as("lookup answer %s", response.body()).isEqualTo(200);
    return response.body().required("value");
  }

  private static Response exchange(RestClient.RequestHeadersSpec<?> request) {
    return request.exchangeForRequiredValue(
        (sent, answer) ->
            new Response(
                answer.getStatusCode().value(), answer.getHeaders(), read(answer.getBody())));
  }

  private static JsonNode read(InputStream body) throws IOException {
    return json.readTree(StreamUtils.copyToByteArray(body));
  }

  /**
   * An HTTP answer.
   *
   * @param status its status code
   * @param headers its headers
   * @param body its JSON body, a missing node when it had none
   */
  record Response(int status, HttpHeaders headers, JsonNode body) {

    /** The first value of header {@code name}, or {@code null}. */
    String header(String name) {
      return this.headers.getFirst(name);
    }
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
