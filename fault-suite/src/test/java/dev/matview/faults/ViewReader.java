package dev.matview.faults;

import dev.matview.faults.ViewContents.Revenue;
import dev.matview.processes.http.HttpProbe;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the sample's views from one instance over HTTP, strictly (no stale reads): every key by a
 * scan of all partitions, and each expected key by its own lookup. Any answer but 200 (or 404 for a
 * missing key) fails with the status and the problem detail.
 */
final class ViewReader {

  static final JsonMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  private final SampleInstance instance;

  private final Instant from;

  private final Instant to;

  /** A reader of {@code instance} that asks for windows starting in [{@code from}, {@code to}]. */
  ViewReader(SampleInstance instance, Instant from, Instant to) {
    this.instance = instance;
    this.from = from;
    this.to = to;
  }

  /** Every key of every view, read by scanning all partitions through this instance. */
  ViewContents scan() {
    Map<String, Long> counts = new TreeMap<>();
    Map<String, Revenue> revenue = new TreeMap<>();
    Map<String, Map<Instant, Long>> windows = new TreeMap<>();
    scan(
        "/views/" + ViewContents.ORDERS_PER_CUSTOMER + "/keys?limit=1000",
        item -> counts.put(item.get("key").asString(), item.get("value").asLong()));
    scan(
        "/views/" + ViewContents.REVENUE_PER_CUSTOMER + "/keys?limit=1000",
        item -> revenue.put(item.get("key").asString(), revenue(item.get("value"))));
    scan(
        "/views/"
            + ViewContents.ORDERS_PER_MINUTE
            + "/windows?limit=1000&from="
            + encode(this.from)
            + "&to="
            + encode(this.to),
        item ->
            windows
                .computeIfAbsent(item.get("key").asString(), key -> new TreeMap<>())
                .put(Instant.parse(item.get("start").asString()), item.get("value").asLong()));
    return new ViewContents(counts, revenue, windows);
  }

  /** The given customers' entries of every view, each read by its own key lookup. */
  ViewContents lookUp(Collection<String> customers) {
    Map<String, Long> counts = new TreeMap<>();
    Map<String, Revenue> revenue = new TreeMap<>();
    Map<String, Map<Instant, Long>> windows = new TreeMap<>();
    for (String customer : customers) {
      String key = URLEncoder.encode(customer, StandardCharsets.UTF_8);
      lookUp(
          "/views/" + ViewContents.ORDERS_PER_CUSTOMER + "/keys/" + key,
          value -> counts.put(customer, value.get("value").asLong()));
      lookUp(
          "/views/" + ViewContents.REVENUE_PER_CUSTOMER + "/keys/" + key,
          value -> revenue.put(customer, revenue(value.get("value"))));
      lookUp(
          "/views/"
              + ViewContents.ORDERS_PER_MINUTE
              + "/keys/"
              + key
              + "/windows?from="
              + encode(this.from)
              + "&to="
              + encode(this.to),
          value -> {
            Map<Instant, Long> found = new TreeMap<>();
            for (JsonNode window : value.get("windows")) {
              found.put(
                  Instant.parse(window.get("start").asString()), window.get("value").asLong());
            }
            if (!found.isEmpty()) {
              windows.put(customer, found);
            }
          });
    }
    return new ViewContents(counts, revenue, windows);
  }

  private void scan(String firstPage, Consumer<JsonNode> items) {
    String page = firstPage;
    while (page != null) {
      JsonNode body = okBody(page, false);
      body.get("items").forEach(items);
      JsonNode cursor = body.get("nextCursor");
      page =
          (cursor == null || cursor.isNull())
              ? null
              : firstPage
                  + "&cursor="
                  + URLEncoder.encode(cursor.asString(), StandardCharsets.UTF_8);
    }
  }

  private void lookUp(String path, Consumer<JsonNode> found) {
    JsonNode body = okBody(path, true);
    if (body != null) {
      found.accept(body);
    }
  }

  private JsonNode okBody(String pathAndQuery, boolean notFoundIsAbsent) {
    HttpProbe.Answer answer;
    try {
      answer = this.instance.http().get(pathAndQuery);
    } catch (UncheckedIOException ex) {
      throw new AssertionError(ex.getMessage() + ": " + ex.getCause(), ex);
    }
    if (notFoundIsAbsent && answer.status() == 404) {
      return null;
    }
    if (answer.status() != 200) {
      throw new AssertionError(
          answer.request() + " answered " + answer.status() + ": " + answer.body());
    }
    return JSON.readTree(answer.body());
  }

  private static Revenue revenue(JsonNode value) {
    return new Revenue(
        value.get("orders").asLong(),
        value.get("total").decimalValue(),
        value.get("max").decimalValue());
  }

  private static String encode(Instant instant) {
    return URLEncoder.encode(instant.toString(), StandardCharsets.UTF_8);
  }
}
