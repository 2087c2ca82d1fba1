package dev.matview.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reads the problem details of refusals and turns a refusal into the exception that names it. */
final class Problems {

  private final JsonMapper mapper;

  Problems(JsonMapper mapper) {
    this.mapper = mapper;
  }

  /**
   * The problem detail in {@code answer}'s body, {@code null} when it holds none: a JSON object
   * with a {@code type} or a {@code detail}.
   */
  @Nullable MatviewProblem read(RawAnswer answer) {
    JsonNode body;
    try {
      body = this.mapper.readTree(answer.body());
    } catch (JacksonException ex) {
      return null;
    }
    if (body == null || !body.isObject() || !(body.has("type") || body.has("detail"))) {
      return null;
    }
    Long status = number(body, "status");
    Long partition = number(body, "partition");
    return new MatviewProblem(
        text(body, "type"),
        text(body, "title"),
        (status != null) ? status.intValue() : answer.status(),
        text(body, "detail"),
        text(body, "view"),
        text(body, "key"),
        (partition != null) ? partition.intValue() : null,
        text(body, "parameter"),
        number(body, "retryAfterSeconds"));
  }

  /** Whether {@code answer} says that the key it was asked for has no value. */
  boolean isKeyNotFound(RawAnswer answer) {
    if (answer.status() != 404) {
      return false;
    }
    MatviewProblem problem = read(answer);
    return problem != null && problem.is("key-not-found");
  }

  /** The exception for {@code answer}, a refusal of a call of {@code view}. */
  MatviewClientException refusal(String view, RawAnswer answer) {
    MatviewProblem problem = read(answer);
    int status = answer.status();
    String message = "View '" + view + "' answered " + status + ": " + describe(answer, problem);
    if (status == 404 && problem != null && problem.is("unknown-view")) {
      return new MatviewUnknownViewException(message, view, problem);
    }
    if (status == 400 || status == 413 || status == 414 || status == 415) {
      return new MatviewBadRequestException(message, view, status, problem);
    }
    return new MatviewClientException(message, view, status, problem, null);
  }

  /**
   * The exception for {@code answer}, a 503 or 429 of a call of {@code view} whose deadline would
   * pass before {@code retryAfter}.
   */
  MatviewUnavailableException unavailable(
      String view, RawAnswer answer, Duration retryAfter, Duration deadline) {
    MatviewProblem problem = read(answer);
    return new MatviewUnavailableException(
        "View '"
            + view
            + "' could not answer within "
            + deadline
            + " (answered "
            + answer.status()
            + ", retry after "
            + retryAfter
            + "): "
            + describe(answer, problem),
        view,
        answer.status(),
        problem,
        retryAfter);
  }

  private static String describe(RawAnswer answer, @Nullable MatviewProblem problem) {
    if (problem != null && problem.detail() != null) {
      return problem.detail();
    }
    String body = new String(answer.body(), StandardCharsets.UTF_8).strip();
    if (body.isEmpty()) {
      return "no problem detail";
    }
    return body.length() > 200 ? body.substring(0, 200) + "..." : body;
  }

  private static @Nullable String text(JsonNode body, String name) {
    JsonNode node = body.get(name);
    if (node == null || node.isNull()) {
      return null;
    }
    return node.isString() ? node.stringValue() : node.toString();
  }

  private static @Nullable Long number(JsonNode body, String name) {
    JsonNode node = body.get(name);
    return (node != null && node.isIntegralNumber()) ? node.longValue() : null;
  }
}
