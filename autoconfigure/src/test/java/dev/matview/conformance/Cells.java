package dev.matview.conformance;

import static dev.matview.conformance.Answers.assertSameValue;
import static dev.matview.conformance.Answers.describe;
import static dev.matview.conformance.Answers.json;
import static dev.matview.conformance.Answers.keyPath;
import static dev.matview.conformance.Answers.mapper;
import static dev.matview.conformance.Answers.normal;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.conformance.ConformanceCluster.Instance;
import dev.matview.conformance.ExpectedView.Window;
import dev.matview.conformance.Matrix.Endpoint;
import dev.matview.conformance.Matrix.Outcome;
import dev.matview.processes.http.HttpProbe;
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
import tools.jackson.databind.JsonNode;

/**
 * Checks one cell of the matrix: asks one instance what the endpoint answers for the view and
 * compares it with the expected-value model, or with the problem detail the README lists.
 */
final class Cells {

  private static final int PAGE = 2;

  static final String NDJSON = "application/x-ndjson";

  private final DataSet data;

  private final Map<String, ExpectedView> expected;

  private final ProblemCells problems;

  Cells(DataSet data, Map<String, ExpectedView> expected) {
    this.data = data;
    this.expected = expected;
    this.problems = new ProblemCells(data, expected);
  }

  void check(ViewKind view, Endpoint endpoint, Outcome outcome, Instance asker) {
    Asked request = new Asked(view, asker);
    if (outcome == Outcome.ANSWERS) {
      answers(request, endpoint);
    } else {
      this.problems.check(request, endpoint, outcome);
    }
  }

  private void answers(Asked request, Endpoint endpoint) {
    switch (endpoint) {
      case LIST -> listed(request);
      case KEY -> keys(request);
      case KEY_WINDOWS -> keyWindows(request);
      case KEY_SCAN -> keyScan(request, "", expected(request).keys());
      case KEY_BOUNDS -> keyBounds(request);
      case WINDOW_SCAN -> windowScan(request);
      case STREAMED_SCAN -> streamedScan(request);
      case BATCH -> {
        if (request.view().table()) {
          batch(request);
        } else {
          windowsBatch(request);
        }
      }
      case ABSENT_KEY -> noWindows(request);
      case BAD_KEY, REVERSED_RANGE ->
          throw new AssertionError(endpoint + " answers only with a problem detail");
    }
  }

  private void listed(Asked request) {
    ViewKind view = request.view();
    HttpProbe.Answer answer = request.http().get("/views");
    assertThat(answer.status()).as(describe(answer)).isEqualTo(200);
    JsonNode listed = null;
    for (JsonNode item : json(answer)) {
      if (item.path("name").asString().equals(view.name())) {
        listed = item;
      }
    }
    assertThat(listed).as(view.name() + " in " + answer.body()).isNotNull();
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

  private void keys(Asked request) {
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

  private void keyWindows(Asked request) {
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
      Asked request, Object key, Instant from, Instant to, List<Window> windows) {
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
        .containsExactlyElementsOf(windows.stream().map(Answers::describe).toList());
    assertServedByOwner(request, key, answer);
  }

  private void keyBounds(Asked request) {
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

  private void keyScan(Asked request, String bounds, List<Object> keys) {
    assertKeyItems(
        request,
        scan(request, "/views/" + request.view().name() + "/keys?limit=" + PAGE + bounds),
        keys);
  }

  private void assertKeyItems(Asked request, List<JsonNode> items, List<Object> keys) {
    ExpectedView expected = expected(request);
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

  private void windowScan(Asked request) {
    ExpectedView expected = expected(request);
    assertWindowScan(request, this.data.start(), this.data.end(), expected);
    List<Window> all = expected.windowsBetween(this.data.start(), this.data.end());
    List<Instant> starts = all.stream().map(Window::start).sorted().toList();
    Instant from = starts.get(starts.size() / 3);
    Instant to = starts.get(2 * starts.size() / 3);
    assertWindowScan(request, from, to, expected);
  }

  private void assertWindowScan(Asked request, Instant from, Instant to, ExpectedView expected) {
    assertWindowItems(
        request,
        scan(
            request,
            "/views/"
                + request.view().name()
                + "/windows?from="
                + from
                + "&to="
                + to
                + "&limit="
                + PAGE),
        from,
        to,
        expected);
  }

  private void assertWindowItems(
      Asked request, List<JsonNode> items, Instant from, Instant to, ExpectedView expected) {
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
        .containsExactlyInAnyOrderElementsOf(windows.stream().map(Answers::describe).toList());
    assertThat(partitions).as("partitions in scan order").isSorted();
  }

  /**
   * The whole range streamed in one response holds what the model expects, in the order of the
   * pages; resumed after an item in its middle, it holds exactly the items after that one.
   */
  private void streamedScan(Asked request) {
    ViewKind view = request.view();
    String path =
        "/views/"
            + view.name()
            + (view.table()
                ? "/keys?"
                : "/windows?from=" + this.data.start() + "&to=" + this.data.end() + "&");
    List<JsonNode> items = stream(request, path);
    if (view.table()) {
      assertKeyItems(request, items, expected(request).keys());
    } else {
      assertWindowItems(request, items, this.data.start(), this.data.end(), expected(request));
    }
    assertThat(items)
        .as("streamed in the order of the pages")
        .containsExactlyElementsOf(scan(request, path + "limit=" + PAGE));
    int middle = items.size() / 2;
    JsonNode last = items.get(middle);
    String resume = "afterKey=" + view.keyKind().inUrl(view.keyKind().read(last.path("key")));
    if (!view.table()) {
      resume += "&afterStart=" + last.path("start").asString();
    }
    assertThat(stream(request, path + resume))
        .as("resumed after " + last)
        .containsExactlyElementsOf(items.subList(middle + 1, items.size()));
  }

  /** The items of a streamed scan, which must end with a line without a cursor. */
  private static List<JsonNode> stream(Asked request, String path) {
    HttpProbe.Answer answer = request.http().get(path, "Accept", NDJSON);
    assertThat(answer.status()).as(describe(answer)).isEqualTo(200);
    assertThat(answer.header("Content-Type")).as(describe(answer)).startsWith(NDJSON);
    assertThat(answer.body()).as(describe(answer)).endsWith("\n");
    List<String> lines = List.of(answer.body().split("\n"));
    assertThat(mapper.readTree(lines.get(lines.size() - 1)))
        .as("the last line of " + describe(answer))
        .isEqualTo(mapper.readTree("{\"nextCursor\":null}"));
    List<JsonNode> items = new ArrayList<>();
    for (String line : lines.subList(0, lines.size() - 1)) {
      items.add(mapper.readTree(line));
    }
    return items;
  }

  private void batch(Asked request) {
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

  /** A windowed view's batch: each key's windows in the data's range, in the order asked. */
  private void windowsBatch(Asked request) {
    ExpectedView expected = expected(request);
    KeyKind keyKind = request.view().keyKind();
    List<Object> keys = new ArrayList<>(expected.windows().keySet());
    Collections.shuffle(keys, new Random(request.view().name().hashCode()));
    Object absent = this.data.absent(keyKind);
    keys.add(1, absent);
    String body =
        mapper.writeValueAsString(Map.of("keys", keys.stream().map(keyKind::json).toList()));
    HttpProbe.Answer answer =
        request
            .http()
            .post(
                "/views/"
                    + request.view().name()
                    + "/batch?from="
                    + this.data.start()
                    + "&to="
                    + this.data.end(),
                body);
    assertThat(answer.status()).as(describe(answer)).isEqualTo(200);
    JsonNode items = json(answer).path("items");
    assertThat(items.size()).as(describe(answer)).isEqualTo(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      Object key = keys.get(i);
      String what = "item " + i + " of " + describe(answer);
      assertThat(keyKind.read(items.get(i).path("key"))).as(what).isEqualTo(key);
      List<String> actual = new ArrayList<>();
      for (JsonNode window : items.get(i).path("windows")) {
        actual.add(window(request, key, window));
      }
      assertThat(actual)
          .as(what)
          .containsExactlyElementsOf(
              expected.windows().getOrDefault(key, List.of()).stream()
                  .map(Answers::describe)
                  .toList());
    }
  }

  private void noWindows(Asked request) {
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

  /** Every item of a scan, following cursors until there are none. */
  private static List<JsonNode> scan(Asked request, String first) {
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

  private void assertServedByOwner(Asked request, Object key, HttpProbe.Answer answer) {
    assertThat(answer.header("Matview-Served-By"))
        .as(describe(answer))
        .isEqualTo(request.asker().owner(request.view(), key));
    assertThat(answer.header("Matview-Replica")).as(describe(answer)).isEqualTo("active");
  }

  private String window(Asked request, Object key, JsonNode window) {
    Object value = expectedValueType(request, window.path("value"));
    return describe(
        new Window(
            key,
            Instant.parse(window.path("start").asString()),
            Instant.parse(window.path("end").asString()),
            value));
  }

  /** The answered value read as the model's type of value for the view. */
  private Object expectedValueType(Asked request, JsonNode value) {
    Class<?> type =
        expected(request).windows().values().stream()
            .flatMap(List::stream)
            .findFirst()
            .map(window -> window.value().getClass())
            .orElseThrow();
    return normal(mapper.treeToValue(value, type));
  }

  private ExpectedView expected(Asked request) {
    return Objects.requireNonNull(this.expected.get(request.view().name()));
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
}
