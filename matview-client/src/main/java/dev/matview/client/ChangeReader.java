package dev.matview.client;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import tools.jackson.databind.JsonNode;

/**
 * Reads the events of a view's change streams as its key and value types, with the view's {@link
 * AnswerReader}.
 *
 * @param <K> the view's key type
 * @param <V> the view's value type
 */
final class ChangeReader<K, V> {

  private final AnswerReader<K, V> answers;

  ChangeReader(AnswerReader<K, V> answers) {
    this.answers = answers;
  }

  /**
   * The change that an event named {@code kind}, with {@code data} and {@code id}, tells, or {@code
   * null} for an event this client does not hand on.
   */
  @Nullable Change<K, V> change(String kind, String data, @Nullable String id) {
    RawAnswer answer = new RawAnswer(200, HttpHeaders.EMPTY, data.getBytes(StandardCharsets.UTF_8));
    return switch (kind) {
      case "value" -> this.answers.read(answer, body -> keyed(Change.Kind.VALUE, body, true, id));
      case "deleted" ->
          this.answers.read(answer, body -> keyed(Change.Kind.DELETED, body, false, id));
      case "windows" ->
          new Change<>(
              Change.Kind.WINDOWS,
              this.answers.read(answer, this.answers::key),
              null,
              this.answers.windows(answer),
              null,
              null,
              id);
      case "window", "window-deleted" -> this.answers.read(answer, body -> window(kind, body, id));
      case "skipped" ->
          new Change<K, V>(Change.Kind.SKIPPED, null, null, List.of(), null, null, id);
      default -> null;
    };
  }

  /** The change of a key's value, read after its key when {@code withValue}. */
  private Change<K, V> keyed(
      Change.Kind kind, JsonNode body, boolean withValue, @Nullable String id) {
    K key = this.answers.key(body);
    V value = withValue ? this.answers.value(body) : null;
    return new Change<>(kind, key, value, List.of(), null, null, id);
  }

  /** The change of one window, {@code window} or {@code window-deleted}. */
  private Change<K, V> window(String kind, JsonNode body, @Nullable String id) {
    boolean updated = kind.equals("window");
    return new Change<>(
        updated ? Change.Kind.WINDOW : Change.Kind.WINDOW_DELETED,
        this.answers.key(body),
        updated ? this.answers.value(body) : null,
        List.of(),
        this.answers.instant(body, "start"),
        this.answers.instant(body, "end"),
        id);
  }
}
