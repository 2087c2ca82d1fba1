package dev.matview.conformance;

import static dev.matview.conformance.Answers.describe;
import static dev.matview.conformance.Answers.json;
import static dev.matview.conformance.Answers.keyPath;
import static dev.matview.conformance.Answers.mapper;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.conformance.Matrix.Endpoint;
import dev.matview.conformance.Matrix.Outcome;
import dev.matview.processes.http.HttpProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks the cells that answer with a problem detail: the request of the cell's endpoint for the
 * view, and the status, media type and fields of the problem the README lists.
 */
final class ProblemCells {

  private static final int PAGE = 2;

  private final DataSet data;

  private final Map<String, ExpectedView> expected;

  ProblemCells(DataSet data, Map<String, ExpectedView> expected) {
    this.data = data;
    this.expected = expected;
  }

  void check(Asked request, Endpoint endpoint, Outcome outcome) {
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
      case STREAMED_SCAN ->
          assertProblem(http.get(base + "/keys", "Accept", Cells.NDJSON), outcome, view);
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

  private Object anyKey(ViewKind view) {
    if (view == Matrix.UNKNOWN) {
      return "any";
    }
    return this.expected.get(view.name()).keys().get(0);
  }

  private ExpectedView expected(Asked request) {
    return Objects.requireNonNull(this.expected.get(request.view().name()));
  }
}
