package dev.matview.openapi;

import static dev.matview.openapi.LookupOperations.answers;
import static dev.matview.openapi.LookupOperations.operation;
import static dev.matview.openapi.LookupOperations.paging;
import static dev.matview.openapi.LookupOperations.pathKey;
import static dev.matview.openapi.LookupOperations.query;
import static dev.matview.openapi.LookupOperations.queryKey;
import static dev.matview.openapi.LookupOperations.staleReads;
import static dev.matview.openapi.LookupOperations.timeRange;

import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.view.ViewKind;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * Describes each view's own lookup endpoints, typed by its key and value classes, in place of the
 * generic {@code /{view}/...} ones, leaving out those only the instances call each other on; a
 * key's lookup is described with the key in the path and in the query.
 */
public final class ViewApiDocs implements OpenApiCustomizer {

  /** What the summary of a lookup with the key in the query adds. */
  private static final String BY_QUERY = ", the key in the query (any key)";

  /** What {@code from} and {@code to} bound of a view's windows. */
  private static final String RANGE =
      "window start; default the view's retention back from now, and now";

  private final ViewRegistry registry;

  private final String basePath;

  /** Docs of the views of {@code registry}, served under {@code basePath} (no trailing slash). */
  public ViewApiDocs(ViewRegistry registry, String basePath) {
    this.registry = registry;
    this.basePath = basePath;
  }

  @Override
  public void customise(OpenAPI openApi) {
    Paths paths = openApi.getPaths() != null ? openApi.getPaths() : new Paths();
    openApi.setPaths(paths);
    paths.keySet().removeIf((path) -> path.startsWith(this.basePath + "/{view}"));
    Components components =
        openApi.getComponents() != null ? openApi.getComponents() : new Components();
    openApi.setComponents(components);
    ViewSchemas schemas = new ViewSchemas(components);
    for (ResolvedView<?, ?, ?> view : this.registry.all()) {
      describe(paths, schemas, view);
      DocumentParts.tag(
          openApi,
          LookupOperations.tag(view.name()),
          "Lookups and scans of the "
              + view.kind().label()
              + " view "
              + view.name()
              + ", keyed by "
              + view.definition().keyType().getSimpleName());
    }
    DocumentParts.listing(openApi, this.basePath);
    DocumentParts.security(openApi, this.basePath);
    DocumentParts.pruneUnusedSchemas(openApi);
  }

  private void describe(Paths paths, ViewSchemas schemas, ResolvedView<?, ?, ?> view) {
    String name = view.name();
    String base = this.basePath + "/" + name;
    Class<?> keyType = view.definition().keyType();
    Schema<?> key = schemas.body(keyType);
    Schema<?> value = schemas.body(view.definition().aggregateType());
    String id = name.replaceAll("[^A-Za-z0-9]+", "_");
    boolean windowed = view.window() != null;
    String kind = view.kind() == ViewKind.SESSION ? "sessions" : "windows";
    for (boolean inQuery : new boolean[] {false, true}) {
      String by = inQuery ? BY_QUERY : "";
      String byId = id + (inQuery ? "_by_query" : "");
      Operation get =
          windowed
              ? timeRange(
                  operation(
                      name,
                      "The " + kind + " of a key of " + name + " by start" + by,
                      "windows_" + byId),
                  RANGE)
              : operation(name, "The current value of a key of " + name + by, "get_" + byId);
      paths.addPathItem(
          base + (inQuery ? "/key" : "/keys/{key}") + (windowed ? "/windows" : ""),
          new PathItem()
              .get(
                  staleReads(
                      get.addParametersItem(key(schemas, keyType, inQuery))
                          .responses(
                              answers(
                                  windowed
                                      ? ViewSchemas.keyWindows(key, value)
                                      : ViewSchemas.keyValue(key, value),
                                  true,
                                  !windowed)))));
    }
    Operation batch =
        operation(
            name,
            (windowed ? "The " + kind : "The values")
                + " of many keys of "
                + name
                + ", in the order asked",
            "batch_" + id);
    paths.addPathItem(
        base + "/batch",
        new PathItem()
            .post(
                windowed
                    ? batch(timeRange(batch, RANGE), key, ViewSchemas.keyWindows(key, value))
                    : batch(batch, key, ViewSchemas.batchItem(key, value))));
    Operation scan =
        operation(
            name,
            "A page of a scan over every " + (windowed ? "window" : "key") + " of " + name,
            "scan_" + id);
    paths.addPathItem(
        base + (windowed ? "/windows" : "/keys"),
        new PathItem()
            .get(
                paging(
                    (windowed
                            ? timeRange(scan, "window start")
                            : scan.addParametersItem(
                                    query("from", new StringSchema(), "smallest key"))
                                .addParametersItem(query("to", new StringSchema(), "largest key")))
                        .responses(
                            answers(
                                ViewSchemas.page(
                                    windowed
                                        ? ViewSchemas.window(value).addProperty("key", key)
                                        : ViewSchemas.keyValue(key, value)),
                                false,
                                false)))));
  }

  private static Parameter key(ViewSchemas schemas, Class<?> keyType, boolean inQuery) {
    Schema<?> schema = schemas.pathKey(keyType);
    return inQuery ? queryKey(schema) : pathKey(schema);
  }

  private static Operation batch(Operation operation, Schema<?> key, Schema<?> item) {
    Schema<?> body =
        new ObjectSchema()
            .addProperty("keys", new ArraySchema().items(key))
            .required(java.util.List.of("keys"));
    return operation
        .requestBody(
            new RequestBody()
                .required(true)
                .content(
                    new Content().addMediaType("application/json", new MediaType().schema(body))))
        .responses(
            answers(
                    new ObjectSchema().addProperty("items", new ArraySchema().items(item)),
                    false,
                    false)
                .addApiResponse(
                    "413",
                    new ApiResponse()
                        .description("The body is larger than matview.web.max-batch-body")));
  }
}
