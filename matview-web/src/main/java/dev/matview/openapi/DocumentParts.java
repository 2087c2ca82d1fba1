package dev.matview.openapi;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.tags.Tag;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What Matview's operations need of the document as a whole to pass a linter's recommended rules: a
 * described tag for each of their tags, the views' listing with a summary and its problem, and the
 * security each states.
 */
final class DocumentParts {

  /** The tag of the views' listing. */
  static final String VIEWS_TAG = "views";

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
   * States on each operation under {@code basePath} that it is open, as Matview serves it, unless
   * the document states a security of its own for every operation (the application's, which they
   * then follow).
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
}
