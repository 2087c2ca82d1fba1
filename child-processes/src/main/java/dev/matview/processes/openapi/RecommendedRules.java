package dev.matview.processes.openapi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The rules of Redocly's {@code recommended} ruleset that an OpenAPI 3 document can break without
 * examples, checked in the build with nothing to download: the document's, its paths' and its
 * operations' here, its schemas' and references' in {@link SchemaRules}.
 */
public final class RecommendedRules {

  /** The rules checked, by their names in Redocly's ruleset. */
  public static final List<String> CHECKED =
      List.of(
          "struct (info, operations' responses, parameters)",
          "info-license",
          "info-license-strict",
          "no-empty-servers",
          "no-server-trailing-slash",
          "no-server-example.com",
          "no-undefined-server-variable",
          "no-server-variables-empty-enum",
          "tag-description",
          "no-duplicated-tag-names",
          "security-defined",
          "no-path-trailing-slash",
          "path-declaration-must-exist",
          "path-not-include-query",
          "no-identical-paths",
          "no-ambiguous-paths",
          "path-parameters-defined",
          "operation-summary",
          "operation-operationId",
          "operation-operationId-unique",
          "operation-operationId-url-safe",
          "operation-parameters-unique",
          "operation-2xx-response",
          "operation-4xx-response",
          "no-unresolved-refs",
          "no-unused-components",
          "spec-components-invalid-map-name",
          "no-enum-type-mismatch",
          "no-schema-type-mismatch",
          "no-required-schema-properties-undefined",
          "no-mixed-number-range-constraints",
          "nullable-type-sibling",
          "no-example-value-and-externalValue");

  static final List<String> METHODS =
      List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

  private static final Pattern TEMPLATE = Pattern.compile("\\{([^}]*)}");

  private static final Pattern URL_SAFE =
      Pattern.compile("[A-Za-z0-9\\-._~:/?#\\[\\]@!$&'()*+,;=]*");

  private final JsonNode document;

  private final Findings findings = new Findings();

  private RecommendedRules(JsonNode document) {
    this.document = document;
  }

  /** What {@code document} breaks of the rules {@link #CHECKED}, in the document's order. */
  public static List<Finding> check(JsonNode document) {
    RecommendedRules rules = new RecommendedRules(document);
    rules.info();
    rules.servers();
    rules.tags();
    rules.paths();
    rules.security();
    SchemaRules.check(document, rules.findings);
    return rules.findings.all();
  }

  private void info() {
    JsonNode info = this.document.path("info");
    this.findings.unless(info.path("title").isString(), "struct", "#/info", "no title");
    this.findings.unless(info.path("version").isString(), "struct", "#/info", "no version");
    JsonNode license = info.path("license");
    if (!license.isObject()) {
      this.findings.add("info-license", "#/info", "no license");
      return;
    }
    boolean strict =
        !license.path("url").asString("").isEmpty()
            || (!this.document.path("openapi").asString("").startsWith("3.0")
                && !license.path("identifier").asString("").isEmpty());
    this.findings.unless(strict, "info-license-strict", "#/info/license", "no url or identifier");
  }

  private void servers() {
    JsonNode servers = this.document.path("servers");
    if (servers.isMissingNode()) {
      return;
    }
    this.findings.unless(!servers.isEmpty(), "no-empty-servers", "#/servers", "empty");
    for (JsonNode server : servers.values()) {
      String url = server.path("url").asString("");
      String where = "#/servers " + url;
      this.findings.unless(
          url.equals("/") || !url.endsWith("/"), "no-server-trailing-slash", where, "ends in /");
      this.findings.unless(!url.contains("example.com"), "no-server-example.com", where, "");
      JsonNode variables = server.path("variables");
      Matcher matcher = TEMPLATE.matcher(url);
      while (matcher.find()) {
        this.findings.unless(
            variables.has(matcher.group(1)),
            "no-undefined-server-variable",
            where,
            matcher.group(1));
      }
      for (Map.Entry<String, JsonNode> variable : variables.properties()) {
        JsonNode values = variable.getValue().path("enum");
        this.findings.unless(
            !values.isArray() || !values.isEmpty(),
            "no-server-variables-empty-enum",
            where,
            variable.getKey());
      }
    }
  }

  private void tags() {
    Set<String> names = new HashSet<>();
    for (JsonNode tag : this.document.path("tags").values()) {
      String name = tag.path("name").asString("");
      this.findings.unless(
          !tag.path("description").asString("").isBlank(), "tag-description", "#/tags", name);
      this.findings.unless(names.add(name), "no-duplicated-tag-names", "#/tags", name);
    }
  }

  private void paths() {
    Map<String, String> shapes = new HashMap<>();
    List<String> seen = new ArrayList<>();
    Map<String, String> operationIds = new HashMap<>();
    for (Map.Entry<String, JsonNode> entry : this.document.path("paths").properties()) {
      String path = entry.getKey();
      String where = "#/paths " + path;
      this.findings.unless(
          path.equals("/") || !path.endsWith("/"), "no-path-trailing-slash", where, "");
      this.findings.unless(!path.contains("{}"), "path-declaration-must-exist", where, "");
      this.findings.unless(!path.contains("?"), "path-not-include-query", where, "");
      String shape = TEMPLATE.matcher(path).replaceAll("{}");
      String twin = shapes.putIfAbsent(shape, path);
      this.findings.unless(twin == null, "no-identical-paths", where, "the same as " + twin);
      for (String other : seen) {
        this.findings.unless(
            !PathShapes.ambiguous(other, path), "no-ambiguous-paths", where, "and " + other);
      }
      seen.add(path);
      JsonNode item = entry.getValue();
      for (String method : METHODS) {
        if (item.has(method)) {
          Operations.check(
              this.document, path, method, item, item.path(method), operationIds, this.findings);
        }
      }
    }
  }

  private void security() {
    Set<String> schemes =
        new HashSet<>(this.document.at("/components/securitySchemes").propertyNames());
    List<JsonNode> requirements = new ArrayList<>(this.document.path("security").values());
    boolean everyOperation = true;
    for (Map.Entry<String, JsonNode> path : this.document.path("paths").properties()) {
      for (String method : METHODS) {
        JsonNode operation = path.getValue().path(method);
        if (operation.isMissingNode()) {
          continue;
        }
        if (operation.path("security").isArray()) {
          requirements.addAll(operation.path("security").values());
        } else {
          everyOperation = false;
          this.findings.unless(
              this.document.path("security").isArray(),
              "security-defined",
              "#/paths " + path.getKey() + " " + method,
              "states no security, and the document none for all");
        }
      }
    }
    for (JsonNode requirement : requirements) {
      for (String scheme : requirement.propertyNames()) {
        this.findings.unless(
            schemes.contains(scheme), "security-defined", "#/security", "no scheme " + scheme);
      }
    }
    if (!everyOperation && !this.document.path("security").isArray()) {
      this.findings.add("security-defined", "#/", "no security for every operation");
    }
  }

  /** Whether {@code operationId} is made of the characters a URL may hold unescaped. */
  static boolean urlSafe(String operationId) {
    return URL_SAFE.matcher(operationId).matches();
  }

  /** The names of the parameters in {@code path}'s template. */
  static Set<String> templateNames(String path) {
    Set<String> names = new HashSet<>();
    Matcher matcher = TEMPLATE.matcher(path);
    while (matcher.find()) {
      names.add(matcher.group(1));
    }
    return names;
  }
}
