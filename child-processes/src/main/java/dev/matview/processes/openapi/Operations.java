package dev.matview.processes.openapi;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/** The rules of one operation: its summary, id, parameters and responses. */
final class Operations {

  private Operations() {}

  /**
   * Checks {@code method} on {@code path}, whose path item is {@code item}; {@code operationIds}
   * holds the ids seen so far and where.
   */
  static void check(
      JsonNode document,
      String path,
      String method,
      JsonNode item,
      JsonNode operation,
      Map<String, String> operationIds,
      Findings findings) {
    String where = "#/paths " + path + " " + method;
    findings.unless(
        !operation.path("summary").asString("").isBlank(), "operation-summary", where, "");
    String id = operation.path("operationId").asString("");
    if (id.isEmpty()) {
      findings.add("operation-operationId", where, "no operationId");
    } else {
      String twin = operationIds.putIfAbsent(id, where);
      findings.unless(twin == null, "operation-operationId-unique", where, id + " as at " + twin);
      findings.unless(RecommendedRules.urlSafe(id), "operation-operationId-url-safe", where, id);
    }
    parameters(document, path, item, operation, where, findings);
    responses(document, operation, where, findings);
  }

  private static void parameters(
      JsonNode document,
      String path,
      JsonNode item,
      JsonNode operation,
      String where,
      Findings findings) {
    Set<String> declared = new HashSet<>();
    Set<String> inPath = new HashSet<>();
    List<JsonNode> all = new ArrayList<>(item.path("parameters").values());
    all.addAll(operation.path("parameters").values());
    for (JsonNode reference : operation.path("parameters").values()) {
      JsonNode parameter = resolved(document, reference);
      String name = parameter.path("name").asString("");
      String in = parameter.path("in").asString("");
      findings.unless(
          declared.add(in + " " + name), "operation-parameters-unique", where, in + " " + name);
    }
    for (JsonNode reference : all) {
      JsonNode parameter = resolved(document, reference);
      String name = parameter.path("name").asString("");
      String in = parameter.path("in").asString("");
      findings.unless(
          !name.isEmpty() && !in.isEmpty(), "struct", where, "a parameter without name or in");
      findings.unless(
          parameter.has("schema") || parameter.has("content"),
          "struct",
          where,
          "parameter " + name + " has no schema or content");
      if (in.equals("path")) {
        inPath.add(name);
        findings.unless(
            parameter.path("required").asBoolean(false),
            "struct",
            where,
            "path parameter " + name + " is not required");
      }
    }
    Set<String> template = RecommendedRules.templateNames(path);
    for (String name : template) {
      findings.unless(inPath.contains(name), "path-parameters-defined", where, name + " undefined");
    }
    for (String name : inPath) {
      findings.unless(
          template.contains(name), "path-parameters-defined", where, name + " not in the path");
    }
  }

  private static void responses(
      JsonNode document, JsonNode operation, String where, Findings findings) {
    JsonNode responses = operation.path("responses");
    findings.unless(responses.isObject() && !responses.isEmpty(), "struct", where, "no responses");
    boolean success = false;
    boolean problem = false;
    for (Map.Entry<String, JsonNode> response : responses.properties()) {
      success |= response.getKey().startsWith("2");
      problem |= response.getKey().startsWith("4");
      findings.unless(
          resolved(document, response.getValue()).path("description").isString(),
          "struct",
          where,
          "response " + response.getKey() + " has no description");
    }
    findings.unless(success, "operation-2xx-response", where, "no 2xx answer");
    findings.unless(problem, "operation-4xx-response", where, "no 4xx answer");
  }

  /** {@code node}, or what its local {@code $ref} points at. */
  static JsonNode resolved(JsonNode document, JsonNode node) {
    String ref = node.path("$ref").asString("");
    return ref.startsWith("#") ? document.at(ref.substring(1)) : node;
  }
}
