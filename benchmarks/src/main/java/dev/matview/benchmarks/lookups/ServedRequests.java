package dev.matview.benchmarks.lookups;

import dev.matview.benchmarks.process.AppInstance;
import dev.matview.processes.http.HttpProbe;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * How many requests an instance had served, by the handler's path pattern, as its {@code
 * http.server.requests} timer counted them (the actuator's metrics endpoint must be exposed).
 */
final class ServedRequests {

  private static final String METRIC = "/actuator/metrics/http.server.requests";

  private final Map<String, Double> byUri;

  private ServedRequests(Map<String, Double> byUri) {
    this.byUri = byUri;
  }

  /** The counts {@code app} has now. */
  static ServedRequests of(AppInstance app) {
    HttpProbe http = app.http();
    HttpProbe.Answer metric = http.get(METRIC);
    Map<String, Double> counts = new LinkedHashMap<>();
    if (metric.status() != 200) {
      throw new IllegalStateException(
          app.name() + " does not expose its request metrics: " + metric.describe());
    }
    for (JsonNode tag : metric.json().path("availableTags")) {
      if (!"uri".equals(tag.path("tag").asString())) {
        continue;
      }
      for (JsonNode value : tag.path("values")) {
        String uri = value.asString();
        counts.put(uri, count(http.get(METRIC + "?tag=" + HttpProbe.encode("uri:" + uri))));
      }
    }
    return new ServedRequests(counts);
  }

  /** The requests served since {@code before}. */
  ServedRequests since(ServedRequests before) {
    Map<String, Double> served = new LinkedHashMap<>();
    this.byUri.forEach(
        (uri, count) -> served.put(uri, count - before.byUri.getOrDefault(uri, 0.0)));
    return new ServedRequests(served);
  }

  /** How many went to a handler whose path pattern ends with {@code suffix}. */
  double endingWith(String suffix) {
    return this.byUri.entrySet().stream()
        .filter((entry) -> entry.getKey().endsWith(suffix))
        .mapToDouble(Map.Entry::getValue)
        .sum();
  }

  private static double count(HttpProbe.Answer answer) {
    for (JsonNode measurement : answer.json().path("measurements")) {
      if ("COUNT".equals(measurement.path("statistic").asString())) {
        return measurement.path("value").asDouble();
      }
    }
    return 0;
  }
}
