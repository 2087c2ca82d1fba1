package dev.matview.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.conformance.ConformanceApp.Event;
import dev.matview.conformance.ConformanceApp.Visits;
import dev.matview.conformance.ExpectedView.Window;
import dev.matview.processes.http.HttpProbe;
import java.math.BigDecimal;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/** Reading and describing the answers of the matrix's requests. */
final class Answers {

  /** Reads decimals as written, not through a double. */
  static final JsonMapper mapper =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  private Answers() {}

  static String describe(Window window) {
    return window.key()
        + " ["
        + window.start()
        + ", "
        + window.end()
        + "] "
        + normal(window.value());
  }

  /** {@code value} with its decimals in their shortest form: the README promises no scale. */
  static Object normal(Object value) {
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

  static void assertSameValue(Object expected, JsonNode actual, String what) {
    assertThat(normal(mapper.treeToValue(actual, expected.getClass())))
        .as(what)
        .isEqualTo(normal(expected));
  }

  /** The answer's body, read with decimals as written. */
  static JsonNode json(HttpProbe.Answer answer) {
    String body = answer.body();
    return body == null || body.isBlank() ? MissingNode.getInstance() : mapper.readTree(body);
  }

  static String keyPath(ViewKind view, Object key) {
    return "/views/" + view.name() + "/keys/" + view.keyKind().inUrl(key);
  }

  static String describe(HttpProbe.Answer answer) {
    return answer.request() + " -> " + answer.status() + " " + answer.body();
  }
}
