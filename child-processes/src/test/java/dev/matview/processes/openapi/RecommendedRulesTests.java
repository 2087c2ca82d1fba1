package dev.matview.processes.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Each rule checked finds what it should in a document that breaks it, and nothing in one that
 * keeps it.
 */
class RecommendedRulesTests {

  private static final String CLEAN =
      """
      {"openapi": "3.1.0",
       "info": {"title": "Orders", "version": "1",
                "license": {"name": "Apache 2.0", "identifier": "Apache-2.0"}},
       "servers": [{"url": "http://localhost:8080"}],
       "security": [],
       "tags": [{"name": "orders", "description": "Orders placed"}],
       "paths": {
         "/orders/{id}": {"get": {
           "summary": "One order", "operationId": "get_order", "tags": ["orders"],
           "parameters": [{"name": "id", "in": "path", "required": true,
                           "schema": {"type": "string", "enum": ["a", "b"]}}],
           "responses": {
             "200": {"description": "The order", "content": {"application/json":
                     {"schema": {"$ref": "#/components/schemas/Order"}}}},
             "404": {"description": "No such order"}}}}},
       "components": {"schemas": {"Order": {"type": "object", "required": ["id"],
                      "properties": {"id": {"type": "string"},
                                     "amount": {"type": "number", "minimum": 0}}}}}}
      """;

  private static final String BROKEN =
      """
      {"openapi": "3.1.0",
       "info": {"title": "Orders", "version": "1", "license": {"name": "Apache 2.0"}},
       "servers": [{"url": "https://example.com/{region}/"}],
       "tags": [{"name": "orders"}, {"name": "orders", "description": "again"}],
       "paths": {
         "/orders/{id}/": {"get": {
           "operationId": "get order",
           "parameters": [{"name": "key", "in": "path", "required": true,
                           "schema": {"type": "integer", "enum": ["a"]}},
                          {"name": "key", "in": "path", "required": true,
                           "schema": {"type": "object", "items": {}}}],
           "responses": {"500": {"description": "Failed", "content": {"application/json":
                     {"schema": {"$ref": "#/components/schemas/Gone"}}}}}}},
         "/orders/{key}/": {"get": {"summary": "Again", "operationId": "get order",
           "security": [{"token": []}],
           "responses": {"200": {"description": "OK"}}}},
         "/{shop}/{id}": {"get": {"summary": "Shop", "responses": {}}},
         "/items/{}": {},
         "/items?x=1": {}},
       "components": {"schemas": {
         "Unused name": {"type": "array", "properties": {}, "required": ["x"]},
         "Range": {"type": "integer", "minimum": 1, "exclusiveMinimum": 0},
         "Examples": {"type": "string"}},
        "examples": {"Both": {"value": 1, "externalValue": "http://x"}}}}
      """;

  private final JsonMapper mapper = JsonMapper.builder().build();

  @Test
  void findsNothingInADocumentThatKeepsEveryRule() {
    assertThat(RecommendedRules.check(json(CLEAN))).isEmpty();
  }

  @Test
  void findsEachRuleThatADocumentBreaks() {
    List<Finding> findings = RecommendedRules.check(json(BROKEN));

    assertThat(findings)
        .extracting(Finding::rule)
        .contains(
            "struct",
            "info-license-strict",
            "no-server-trailing-slash",
            "no-server-example.com",
            "no-undefined-server-variable",
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
            "no-example-value-and-externalValue");
    assertThat(findings)
        .map(Finding::toString)
        .contains("security-defined at #/security: no scheme token")
        .contains("operation-summary at #/paths /orders/{id}/ get");
  }

  @Test
  void findsTheDocumentWideRulesOfLicenseServersAndNullableTypes() {
    JsonNode document =
        json(
            """
            {"openapi": "3.0.3", "info": {"title": "Orders", "version": "1"}, "servers": [],
             "paths": {}, "components": {"schemas": {"N": {"nullable": true}}}}
            """);
    assertThat(RecommendedRules.check(document))
        .extracting(Finding::rule)
        .containsExactlyInAnyOrder(
            "info-license", "no-empty-servers", "no-unused-components", "nullable-type-sibling");
  }

  @Test
  void namesAServerVariableWhoseEnumIsEmpty() {
    JsonNode document =
        json(
            """
            {"openapi": "3.1.0", "security": [],
             "info": {"title": "O", "version": "1", "license": {"name": "MIT", "url": "http://x"}},
             "servers": [{"url": "http://{host}", "variables": {"host": {"enum": [], "default": ""}}}],
             "paths": {}}
            """);
    assertThat(RecommendedRules.check(document))
        .map(Finding::toString)
        .containsExactly("no-server-variables-empty-enum at #/servers http://{host}: host");
  }

  private JsonNode json(String text) {
    return this.mapper.readTree(text);
  }
}
