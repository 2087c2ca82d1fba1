package dev.matview.openapi;

import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.tags.Tag;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Matview's operations need of the document as a whole to pass a linter's recommended rules: a
 * described tag for each of their tags, the views' listing with a summary and its problem, the
 * security each states, and no schema that nothing refers to.
 */
final class DocumentParts {

  /** The tag of the views' listing. */
  static final String VIEWS_TAG = "views";

  private static final Pattern REFERENCE = Pattern.compile("#/components/schemas/([^\"]+)\"");

  private DocumentParts() {}

  /** Adds the tag {@code name} with {@code description} to the document, unless it has one. */
  static void tag(OpenAPI openApi, String name, String description) {
    List<Tag> tags = openApi.getTags() != null ? openApi.getTags() : new ArrayList<>();
    openApi.setTags(tags);
    if (tags.stream().noneMatch(tag -> name.equals(tag.getName()))) {
      tags.add(new Tag().name(name).description(description));
    }
  }

  /** Describes the views' listing, {@code GET} on the base path, if the document has it. */
  static void listing(OpenAPI openApi, String basePath) {
    PathItem item = openApi.getPaths().get(basePath);
    Operation get = item != null ? item.getGet() : null;
    if (get == null) {
      return;
    }
    get.summary("The views this application serves, with their kinds, types and topics")
        .tags(new ArrayList<>(List.of(VIEWS_TAG)));
    if (get.getOperationId() == null) {
      get.operationId("list_views");
    }
    if (get.getResponses() != null) {
      get.getResponses()
          .addApiResponse(
              "406", LookupOperations.problem("The Accept header allows no JSON answer"));
    }
    tag(openApi, VIEWS_TAG, "The views this application serves");
  }

  /**
   * States that each operation under {@code basePath} is open, as Matview serves it, unless the
   * document states a security of its own for all.
   */
  static void security(OpenAPI openApi, String basePath) {
    if (openApi.getSecurity() != null) {
      return;
    }
    for (Map.Entry<String, PathItem> path : openApi.getPaths().entrySet()) {
      if (path.getKey().equals(basePath) || path.getKey().startsWith(basePath + "/")) {
        for (Operation operation : path.getValue().readOperations()) {
          if (operation.getSecurity() == null) {
            operation.setSecurity(new ArrayList<>());
          }
        }
      }
    }
  }

  /** Drops the component schemas that no path refers to, such as the generic endpoints' ones. */
  static void pruneUnusedSchemas(OpenAPI openApi) {
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
