package dev.matview.openapi;

import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Drops the component schemas that no path refers to, directly or through other schemas: those of
 * the generic endpoints that the views' own descriptions replaced.
 */
final class UnusedSchemas {

  private static final Pattern REFERENCE = Pattern.compile("#/components/schemas/([^\"]+)\"");

  private UnusedSchemas() {}

  static void prune(OpenAPI openApi) {
    Map<String, Schema> schemas =
        openApi.getComponents() != null ? openApi.getComponents().getSchemas() : null;
    if (schemas == null || openApi.getPaths() == null) {
      return;
    }
    Set<String> used = new HashSet<>();
    Deque<String> pending = new ArrayDeque<>(referencesIn(openApi.getPaths()));
    while (!pending.isEmpty()) {
      String name = pending.pop();
      Schema<?> schema = schemas.get(name);
      if (used.add(name) && schema != null) {
        pending.addAll(referencesIn(schema));
      }
    }
    schemas.keySet().retainAll(used);
  }

  private static Set<String> referencesIn(Object part) {
    Set<String> names = new HashSet<>();
    Matcher matcher = REFERENCE.matcher(Json.pretty(part));
    while (matcher.find()) {
      names.add(matcher.group(1));
    }
    return names;
  }
}
