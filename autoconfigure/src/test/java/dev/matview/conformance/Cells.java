package dev.matview.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.conformance.ConformanceApp.Event;
import dev.matview.conformance.ConformanceApp.Visits;
import dev.matview.conformance.ConformanceCluster.Instance;
import dev.matview.conformance.ExpectedView.Window;
import dev.matview.conformance.Matrix.Endpoint;
import dev.matview.conformance.Matrix.Outcome;
import dev.matview.web.HttpProbe;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.stream.Collectors;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/**
 * Checks one cell of the matrix: asks one instance what the endpoint answers for the view and
 * compares it with the expected-value model, or with the problem detail the README lists.
 */
final class Cells {

  /** Reads decimals as written, not through a double. */
  private static final JsonMapper mapper =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  private static final int PAGE = 2;

  private final DataSet data;

  private final Map<String, ExpectedView> expected;

  Cells(DataSet data, Map<String, ExpectedView> expected) {
    this.data = data;
    this.expected = expected;
  }

  void check(ViewKind view, Endpoint endpoint, Outcome outcome, Instance asker) {
    Request request = new Request(view, asker);
    if (outcome == Outcome.ANSWERS) {
      answers(request, endpoint);
    } else {
      refuses(request, endpoint, outcome);
    }
  }

  private void answers(Request request, Endpoint endpoint) {
    switch (endpoint) {
      case LIST -> listed(request);
      case KEY -> keys(request);
      case KEY_WINDOWS -> keyWindows(request);
      case KEY_SCAN -> keyScan(request, "", expected(request).keys());
      case KEY_BOUNDS -> keyBounds(request);
      case WINDOW_SCAN -> windowScan(request);
      case BATCH -> batch(request);
      case ABSENT_KEY -> noWindows(request);
      case BAD_KEY, REVERSED_RANGE ->
          throw new AssertionError(endpoint + " answers only with a problem detail");
    }
  }

  private void listed(Request request) {
    ViewKind view = request.view();
    HttpProbe.Answer answer = request.http().get("/views");
    assertThat(answer.status()).as(describe(answer)).isEqualTo(200);
    JsonNode listed = null;
    for (JsonNode item : json(answer)) {
      if (item.path("name").asString().equals(view.name())) {
        listed = item;
      }
    }
    assertThat(listed).as(view.name() + " in " + answer.response().body()).isNotNull();
    assertThat(listed.path("kind").asString()).isEqualTo(view.kindLabel());
    assertThat(listed.path("keyType").asString()).isEqualTo(view.keyKind().typeName());
    assertThat(listed.path("storeName").asString()).isEqualTo(view.name());
    assertThat(listed.path("sourceTopic").asString()).isEqualTo(view.topic());
    assertThat(listed.path("changelogTopic").asString())
        .isEqualTo(ConformanceCluster.APPLICATION_ID + "-" + view.name() + "-changelog");
    if (view.table()) {
      assertThat(listed.path("window").isNull()).as(listed.toString()).isTrue();
    } else {
      JsonNode window = listed.path("window");
      assertThat(Duration.parse(window.path("size").asString())).isEqualTo(view.window().size());
      assertThat(Duration.parse(window.path("grace").asString())).isEqualTo(view.window().grace());
      if (view.window().type() == ViewKind.WindowSpec.Type.HOPPING) {
        assertThat(Duration.parse(window.path("advance").asString()))
            .isEqualTo(view.window().advance());
      }
    }
  }

  private void keys(Request request) {
    ExpectedView expected = expected(request);
    assertThat(expected.values()).isNotEmpty();
    expected
        .values()
        .forEach(
            (key, value) -> {
              HttpProbe.Answer answer = request.http().get(keyPath(request.view(), key));
              assertThat(answer.status()).as(describe(answer)).isEqualTo(200);
              assertThat(request.view().keyKind().read(json(answer).path("key")))
                  .as(describe(answer))
                  .isEqualTo(key);
              assertSameValue(value, json(answer).path("value"), describe(answer));
              assertServedByOwner(request, key, answer);
            });
  }

  private void keyWindows(Request request) {
    ExpectedView expected = expected(request);
    assertThat(expected.windows()).isNotEmpty();
    expected
        .windows()
        .forEach(
            (key, windows) -> {
              assertWindows(request, key, this.data.start(), this.data.end(), windows);
              if (windows.size() > 2) {
                Instant from = windows.get(1).start();
                Instant to = windows.get(windows.size() - 2).start();
                assertWindows(
                    request,
                    key,
                    from,
                    to,
                    windows.subList(1, windows.size() - 1).stream()
                        .filter(window -> !window.start().isAfter(to))
                        .toList());
              }
            });
  }

  private void assertWindows(
      Request request, Object key, Instant from, Instant to, List<Window> windows) {
    HttpProbe.Answer answer =
        request.http().get(keyPath(request.view(), key) + "/windows?from=" + from + "&to=" + to);
    assertThat(answer.status()).as(describe(answer)).isEqualTo(200);
    assertThat(request.view().keyKind().read(json(answer).path("key"))).isEqualTo(key);
    JsonNode answered = json(answer).path("windows");
    assertThat(answered.isArray()).as(describe(answer)).isTrue();
    List<String> actual = new ArrayList<>();
    for (JsonNode window : answered) {
      actual.add(window(request, key, window));
    }
    assertThat(actual)
        .as(describe(answer))
        .containsExactlyElementsOf(windows.stream().map(Cells::describe).toList());
    assertServedByOwner(request, key, answer);
  }

  private void keyBounds(Request request) {
    List<Object> sorted = new ArrayList<>(expected(request).keys());
    sorted.sort(request.view().keyKind().storedOrder());
    assertThat(sorted).hasSizeGreaterThan(3);
    Object from = sorted.get(1);
    Object to = sorted.get(sorted.size() - 2);
    keyScan(
        request,
        "&from="
            + request.view().keyKind().inUrl(from)
            + "&to="
            + request.view().keyKind().inUrl(to),
        sorted.subList(1, sorted.size() - 1));
  }

  private void keyScan(Request request, String bounds, List<Object> keys) {
    ExpectedView expected = expected(request);
    List<JsonNode> items =
        scan(request, "/views/" + request.view().name() + "/keys?limit=" + PAGE + bounds);
    List<Object> scanned = new ArrayList<>();
    for (JsonNode item : items) {
      Object key = request.view().keyKind().read(item.path("key"));
      scanned.add(key);
      assertThat(expected.values()).as("scanned " + item).containsKey(key);
      assertSameValue(expected.values().get(key), item.path("value"), "scanned " + item);
    }
    assertThat(scanned).as("every key exactly once").containsExactlyInAnyOrderElementsOf(keys);
    List<Integer> partitions = scanned.stream().map(expected::partition).toList();
    assertThat(partitions).as("partitions of " + scanned).isSorted();
  }

  private void windowScan(Request request) {
    ExpectedView expected = expected(request);
    assertWindowScan(request, this.data.start(), this.data.end(), expected);
    List<Window> all = expected.windowsBetween(this.data.start(), this.data.end());
    List<Instant> starts = all.stream().map(Window::start).sorted().toList();
    Instant from = starts.get(starts.size() / 3);
    Instant to = starts.get(2 * starts.size() / 3);
    assertWindowScan(request, from, to, expected);
  }

  private void assertWindowScan(Request request, Instant from, Instant to, ExpectedView expected) {
    List<JsonNode> items =
        scan(
            request,
            "/views/"
                + request.view().name()
                + "/windows?from="
                + from
                + "&to="
                + to
                + "&limit="
                + PAGE);
    List<String> scanned = new ArrayList<>();
    List<Integer> partitions = new ArrayList<>();
    for (JsonNode item : items) {
      Object key = request.view().keyKind().read(item.path("key"));
      scanned.add(window(request, key, item));
      partitions.add(expected.partition(key));
    }
    List<Window> windows = expected.windowsBetween(from, to);
    assertThat(windows).as("windows in [" + from + ", " + to + "]").isNotEmpty();
    assertThat(scanned)
        .as("every window in [" + from + ", " + to + "] exactly once")
        .containsExactlyInAnyOrderElementsOf(windows.stream().map(Cells::describe).toList());
    assertThat(partitions).as("partitions in scan order").isSorted();
  }

  private void batch(Request request) {
    ExpectedView expected = expected(request);
    KeyKind keyKind = request.view().keyKind();
    List<Object> keys = new ArrayList<>(expected.keys());
    Collections.shuffle(keys, new Random(request.view().name().hashCode()));
    Object absent = this.data.absent(keyKind);
    keys.add(1, absent);
    keys.add(absent);
    String body =
        mapper.writeValueAsString(Map.of("keys", keys.stream().map(keyKind::json).toList()));
    HttpProbe.Answer answer =
        request.http().post("/views/" + request.view().name() + "/batch", body);
    assertThat(answer.status()).as(describe(answer)).isEqualTo(200);
    JsonNode items = json(answer).path("items");
    assertThat(items.size()).as(describe(answer)).isEqualTo(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      JsonNode item = items.get(i);
      Object key = keys.get(i);
      String what = "item " + i + " of " + describe(answer);
      assertThat(keyKind.read(item.path("key"))).as(what).isEqualTo(key);
      Object value = expected.values().get(key);
      assertThat(item.path("found").isBoolean()).as(what).isTrue();
      assertThat(item.path("found").asBoolean()).as(what).isEqualTo(value != null);
      if (value != null) {
        assertSameValue(value, item.path("value"), what);
      } else {
        assertThat(item.path("value").isNull() || item.path("value").isMissingNode())
            .as(what)
            .isTrue();
      }
    }
  }

  private void noWindows(Request request) {
    Object absent = this.data.absent(request.view().keyKind());
    HttpProbe.Answer answer =
        request
            .http()
            .get(
                keyPath(request.view(), absent)
                    + "/windows?from="
                    + this.data.start()
                    + "&to="
                    + this.data.end());
    assertThat(answer.status()).as(describe(answer)).isEqualTo(200);
    assertThat(request.view().keyKind().read(json(answer).path("key"))).isEqualTo(absent);
    assertThat(json(answer).path("windows").isArray()).as(describe(answer)).isTrue();
    assertThat(json(answer).path("windows")).as(describe(answer)).isEmpty();
  }

  private void refuses(Request request, Endpoint endpoint, Outcome outcome) {
    ViewKind view = request.view();
    HttpProbe http = request.http();
    Object key = anyKey(view);
    String base = "/views/" + view.name();
    String range = "from=" + this.data.start() + "&to=" + this.data.end();
    String reversed = "from=" + this.data.end() + "&to=" + this.data.start();
    switch (endpoint) {
      case LIST -> {
        HttpProbe.Answer answer = http.get("/views");
        assertThat(answer.status()).isEqualTo(200);
        List<String> names = new ArrayList<>();
        json(answer).forEach(item -> names.add(item.path("name").asString()));
        assertThat(names).as("views listed").doesNotContain(view.name());
      }
      case KEY -> assertProblem(http.get(keyPath(view, key)), outcome, view);
      case KEY_WINDOWS ->
          assertProblem(http.get(keyPath(view, key) + "/windows?" + range), outcome, view);
      case KEY_SCAN -> assertProblem(http.get(base + "/keys?limit=" + PAGE), outcome, view);
      case KEY_BOUNDS ->
          assertProblem(
              http.get(
                  base
                      + "/keys?from="
                      + view.keyKind().inUrl(key)
                      + "&to="
                      + view.keyKind().inUrl(key)),
              outcome,
              view);
      case WINDOW_SCAN -> assertProblem(http.get(base + "/windows?" + range), outcome, view);
      case BATCH ->
          assertProblem(
              http.post(
                  base + "/batch",
                  mapper.writeValueAsString(Map.of("keys", List.of(view.keyKind().json(key))))),
              outcome,
              view);
      case ABSENT_KEY -> {
        Object absent = this.data.absent(view.keyKind());
        HttpProbe.Answer answer = http.get(keyPath(view, absent));
        assertProblem(answer, outcome, view);
        if (view != Matrix.UNKNOWN) {
          assertThat(view.keyKind().read(json(answer).path("key")))
              .as(describe(answer))
              .isEqualTo(absent);
          assertThat(answer.header("Matview-Served-By"))
              .as(describe(answer))
              .isEqualTo(request.asker().owner(view, absent));
        }
      }
      case BAD_KEY -> {
        String bad = view == Matrix.UNKNOWN ? "x" : view.keyKind().badKeyInUrl();
        String path = base + "/keys/" + bad + (view.table() ? "" : "/windows?" + range);
        assertProblem(http.get(path), outcome, view);
        if (view.table() && view != Matrix.UNKNOWN) {
          HttpProbe.Answer batch =
              http.post(
                  base + "/batch",
                  mapper.writeValueAsString(
                      Map.of(
                          "keys",
                          List.of(view.keyKind().json(key), view.keyKind().badKeyInBatch()))));
          assertProblem(batch, Outcome.BAD_REQUEST, view);
          assertThat(json(batch).path("detail").asString()).contains("Key 1 of the batch");
        }
      }
      case REVERSED_RANGE -> {
        if (view.table()) {
          List<Object> sorted =
              new ArrayList<>(
                  view == Matrix.UNKNOWN ? List.of("b", "a") : expected(request).keys());
          sorted.sort(view.keyKind().storedOrder().reversed());
          assertProblem(
              http.get(
                  base
                      + "/keys?from="
                      + view.keyKind().inUrl(sorted.get(0))
                      + "&to="
                      + view.keyKind().inUrl(sorted.get(sorted.size() - 1))),
              outcome,
              view);
        } else {
          assertProblem(http.get(keyPath(view, key) + "/windows?" + reversed), outcome, view);
          assertProblem(http.get(base + "/windows?" + reversed), outcome, view);
        }
      }
    }
  }

  private void assertProblem(HttpProbe.Answer answer, Outcome outcome, ViewKind view) {
    int status =
        switch (outcome) {
          case NOT_FOUND -> 404;
          case BAD_REQUEST -> 400;
          case URI_TOO_LONG -> 414;
          case ANSWERS -> throw new AssertionError("not a problem");
        };
    String what = describe(answer);
    assertThat(answer.status()).as(what).isEqualTo(status);
    assertThat(answer.header("Content-Type")).as(what).startsWith("application/problem+json");
    assertThat(json(answer).path("status").asInt()).as(what).isEqualTo(status);
    assertThat(json(answer).path("title").asString()).as(what).isNotBlank();
    assertThat(json(answer).path("detail").asString()).as(what).isNotBlank();
    assertThat(json(answer).path("view").asString()).as(what).isEqualTo(view.name());
  }

  /** Every item of a scan, following cursors until there are none. */
  private static List<JsonNode> scan(Request request, String first) {
    List<JsonNode> items = new ArrayList<>();
    String cursor = null;
    for (int page = 0; page < 500; page++) {
      HttpProbe.Answer answer =
          request.http().get(cursor == null ? first : first + "&cursor=" + cursor);
      assertThat(answer.status()).as(describe(answer)).isEqualTo(200);
      JsonNode pageItems = json(answer).path("items");
      assertThat(pageItems.isArray()).as(describe(answer)).isTrue();
      assertThat(pageItems.size()).as(describe(answer)).isLessThanOrEqualTo(PAGE);
      pageItems.forEach(items::add);
      JsonNode next = json(answer).path("nextCursor");
      assertThat(next.isNull() || next.isString()).as(describe(answer)).isTrue();
      if (next.isNull()) {
        return items;
      }
      cursor = next.asString();
    }
    throw new AssertionError("A scan of " + first + " did not end after 500 pages");
  }

  private void assertServedByOwner(Request request, Object key, HttpProbe.Answer answer) {
    assertThat(answer.header("Matview-Served-By"))
        .as(describe(answer))
        .isEqualTo(request.asker().owner(request.view(), key));
    assertThat(answer.header("Matview-Replica")).as(describe(answer)).isEqualTo("active");
  }

  private String window(Request request, Object key, JsonNode window) {
    Object value = expectedValueType(request, window.path("value"));
    return describe(
        new Window(
            key,
            Instant.parse(window.path("start").asString()),
            Instant.parse(window.path("end").asString()),
            value));
  }

  /** The answered value read as the model's type of value for the view. */
  private Object expectedValueType(Request request, JsonNode value) {
    Class<?> type =
        expected(request).windows().values().stream()
            .flatMap(List::stream)
            .findFirst()
            .map(window -> window.value().getClass())
            .orElseThrow();
    return normal(mapper.treeToValue(value, type));
  }

  private static String describe(Window window) {
    return window.key()
        + " ["
        + window.start()
        + ", "
        + window.end()
        + "] "
        + normal(window.value());
  }

  /** {@code value} with its decimals in their shortest form: the README promises no scale. */
  private static Object normal(Object value) {
    if (value instanceof BigDecimal decimal) {
      return decimal.stripTrailingZeros();
    }
    if (value instanceof Visits visits) {
      return new Visits(visits.records(), visits.amount().stripTrailingZeros(), visits.quantity());
    }
    if (value instanceof Event event) {
      return new Event(
          event.name(),
          event.number(),
          event.id(),
          event.pair(),
          event.quantity(),
          event.amount().stripTrailingZeros(),
          event.at());
    }
    return value;
  }

  private static void assertSameValue(Object expected, JsonNode actual, String what) {
    assertThat(normal(mapper.treeToValue(actual, expected.getClass())))
        .as(what)
        .isEqualTo(normal(expected));
  }

  /** The answer's body, read with decimals as written. */
  private static JsonNode json(HttpProbe.Answer answer) {
    String body = answer.response().body();
    return body == null || body.isBlank() ? MissingNode.getInstance() : mapper.readTree(body);
  }

  private Object anyKey(ViewKind view) {
    if (view == Matrix.UNKNOWN) {
      return "any";
    }
    return this.expected.get(view.name()).keys().get(0);
  }

  private ExpectedView expected(Request request) {
    return Objects.requireNonNull(this.expected.get(request.view().name()));
  }

  private static String keyPath(ViewKind view, Object key) {
    return "/views/" + view.name() + "/keys/" + view.keyKind().inUrl(key);
  }

  static String describe(HttpProbe.Answer answer) {
    return answer.response().request().method()
        + " "
        + answer.response().uri()
        + " -> "
        + answer.status()
        + " "
        + answer.response().body();
  }

  /** Counts, per instance, the keys whose lookups that instance must forward. */
  static Map<String, Long> forwardedKeys(
      List<Instance> instances, List<ViewKind> views, Map<String, ExpectedView> expected) {
    return instances.stream()
        .collect(
            Collectors.toMap(
                Instance::name,
                asker ->
                    views.stream()
                        .flatMap(
                            view ->
                                expected.get(view.name()).keys().stream()
                                    .filter(key -> !asker.owner(view, key).equals(asker.address())))
                        .count(),
                (a, b) -> a,
                LinkedHashMap::new));
  }

  private record Request(ViewKind view, Instance asker) {

    HttpProbe http() {
      return this.asker.http();
    }
  }
}
