package dev.matview.topology;

import dev.matview.view.MergeableAggregation;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/** Checks view definitions before a topology is built from them. */
final class ViewValidator {

  private static final Pattern LEGAL_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,200}");

  private static final String KEY_TYPES = "String, Long, Integer, UUID or a Java record (as JSON)";

  private final Map<String, Class<?>> sourceKeyTypeByTopic = new HashMap<>();

  void validate(String name, ViewDefinition<?, ?, ?> definition) {
    if (!LEGAL_NAME.matcher(name).matches()) {
      throw new InvalidViewException(
          name,
          "the name must be 1 to 200 characters of letters, digits, '.', '_' or '-' because it"
              + " names the view's state store and topics",
          "rename it in @MaterializedView");
    }
    String topic = definition.source().topic();
    if (topic == null || topic.isBlank()) {
      throw new InvalidViewException(
          name,
          "it has no source topic",
          "name the topic in Views.from(\"topic\", ValueType.class)");
    }
    requireKeyType(name, "source key type", definition.source().keyType());
    requireKeyType(name, "key type", definition.keyType());
    Class<?> otherKeyType =
        this.sourceKeyTypeByTopic.putIfAbsent(topic, definition.source().keyType());
    if (otherKeyType != null && !otherKeyType.equals(definition.source().keyType())) {
      throw new InvalidViewException(
          name,
          "it reads topic '"
              + topic
              + "' with record keys of type "
              + definition.source().keyType().getSimpleName()
              + " but another view reads them as "
              + otherKeyType.getSimpleName(),
          "views of one topic must use the same key type in Views.from(...)");
    }
    ViewWindow window = definition.window();
    if (window != null) {
      validateWindow(name, definition, window);
    }
  }

  private static void requireKeyType(String name, String what, Class<?> type) {
    if (!ViewSerdes.isSupportedKeyType(type)) {
      throw new InvalidViewException(
          name,
          "its " + what + " " + type.getName() + " is not supported",
          "use " + KEY_TYPES + " instead");
    }
  }

  private static void validateWindow(
      String name, ViewDefinition<?, ?, ?> definition, ViewWindow window) {
    Duration minimum = window.size().plus(window.grace());
    if (window.effectiveRetention().compareTo(minimum) < 0) {
      throw new InvalidViewException(
          name,
          "the window's retention "
              + window.effectiveRetention()
              + " is shorter than its size plus grace ("
              + minimum
              + ")",
          "set withRetention(" + minimum + ") or longer, or leave the retention unset");
    }
    if (window.type() == ViewWindow.Type.SESSION
        && !(definition.aggregation() instanceof MergeableAggregation)) {
      throw new InvalidViewException(
          name,
          "a session window merges sessions, but its aggregation "
              + definition.aggregation().getClass().getName()
              + " cannot merge",
          "implement MergeableAggregation instead of Aggregation");
    }
  }
}
