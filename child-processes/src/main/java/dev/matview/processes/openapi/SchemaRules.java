package dev.matview.processes.openapi;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/** The rules of a document's references, components and schemas. */
final class SchemaRules {

  private static final List<String> COMPONENTS =
      List.of("schemas", "parameters", "responses", "examples", "requestBodies", "headers");

  private static final Pattern COMPONENT_NAME = Pattern.compile("[a-zA-Z0-9.\\-_]+");

  private static final List<String> SUBSCHEMA_LISTS =
      List.of("allOf", "anyOf", "oneOf", "prefixItems");

  private static final List<String> SUBSCHEMAS =
      List.of("items", "additionalProperties", "not", "if", "then", "else", "contains");

  private static final List<String> SUBSCHEMA_MAPS =
      List.of("properties", "patternProperties", "$defs");

  private final JsonNode document;

  private final Findings findings;

  private final boolean openApi30;

  private final Set<String> referenced = new HashSet<>();

  private SchemaRules(JsonNode document, Findings findings) {
    this.document = document;
    this.findings = findings;
    this.openApi30 = document.path("openapi").asString("").startsWith("3.0");
  }

  static void check(JsonNode document, Findings findings) {
    SchemaRules rules = new SchemaRules(document, findings);
    rules.references(document);
    rules.components();
    rules.schemasIn(document, "#");
  }

  private void references(JsonNode node) {
    if (node.isArray()) {
      node.values().forEach(this::references);
      return;
    }
    for (Map.Entry<String, JsonNode> property : node.properties()) {
      JsonNode value = property.getValue();
      if (property.getKey().equals("$ref") && value.isString()) {
        String ref = value.asString();
        this.findings.unless(
            ref.startsWith("#") && !this.document.at(ref.substring(1)).isMissingNode(),
            "no-unresolved-refs",
            ref,
            "resolves to nothing in the document");
        this.referenced.add(ref);
      } else if (property.getKey().equals("examples") && value.isObject()) {
        for (JsonNode example : value.values()) {
          this.findings.unless(
              !(example.has("value") && example.has("externalValue")),
              "no-example-value-and-externalValue",
              "an example",
              "both value and externalValue");
        }
      }
      references(value);
    }
  }

  private void components() {
    for (Map.Entry<String, JsonNode> kind : this.document.path("components").properties()) {
      for (String name : kind.getValue().propertyNames()) {
        String where = "#/components/" + kind.getKey() + "/" + name;
        this.findings.unless(
            COMPONENT_NAME.matcher(name).matches(), "spec-components-invalid-map-name", where, "");
        this.findings.unless(
            !COMPONENTS.contains(kind.getKey()) || this.referenced.contains(where),
            "no-unused-components",
            where,
            "no reference to it");
      }
    }
    for (Map.Entry<String, JsonNode> schema :
        this.document.at("/components/schemas").properties()) {
      schema(schema.getValue(), "#/components/schemas/" + schema.getKey());
    }
  }

  /** Checks each schema in {@code node} outside the components' schemas. */
  private void schemasIn(JsonNode node, String where) {
    if (node.isArray()) {
      node.values().forEach(value -> schemasIn(value, where));
      return;
    }
    for (Map.Entry<String, JsonNode> property : node.properties()) {
      String key = property.getKey();
      if (key.equals("schema") && property.getValue().isObject()) {
        schema(property.getValue(), where);
      } else if (!(where.equals("#") && key.equals("components"))) {
        schemasIn(property.getValue(), where.equals("#") ? "#/" + key : where + " " + key);
      }
    }
    if (where.equals("#")) {
      for (Map.Entry<String, JsonNode> kind : this.document.path("components").properties()) {
        if (!kind.getKey().equals("schemas")) {
          schemasIn(kind.getValue(), "#/components/" + kind.getKey());
        }
      }
    }
  }

  private void schema(JsonNode schema, String where) {
    Set<String> types = new HashSet<>();
    JsonNode type = schema.path("type");
    if (type.isString()) {
      types.add(type.asString());
    }
    type.values().forEach(value -> types.add(value.asString()));
    if (schema.path("enum").isArray() && !types.isEmpty()) {
      for (JsonNode value : schema.path("enum").values()) {
        this.findings.unless(
            types.stream().anyMatch(one -> matches(one, value))
                || (value.isNull() && schema.path("nullable").asBoolean(false)),
            "no-enum-type-mismatch",
            where,
            value + " is no " + types);
      }
    }
    this.findings.unless(
        !(types.equals(Set.of("object")) && schema.has("items")),
        "no-schema-type-mismatch",
        where,
        "an object with items");
    this.findings.unless(
        !(types.equals(Set.of("array")) && schema.has("properties")),
        "no-schema-type-mismatch",
        where,
        "an array with properties");
    if (!SUBSCHEMA_LISTS.stream().anyMatch(schema::has) && !schema.has("$ref")) {
      for (JsonNode required : schema.path("required").values()) {
        this.findings.unless(
            schema.path("properties").has(required.asString()),
            "no-required-schema-properties-undefined",
            where,
            required.asString());
      }
    }
    this.findings.unless(
        !(schema.has("minimum") && schema.path("exclusiveMinimum").isNumber())
            && !(schema.has("maximum") && schema.path("exclusiveMaximum").isNumber()),
        "no-mixed-number-range-constraints",
        where,
        "");
    this.findings.unless(
        !this.openApi30 || !schema.has("nullable") || schema.has("type"),
        "nullable-type-sibling",
        where,
        "nullable without type");
    subschemas(schema, where);
  }

  private void subschemas(JsonNode schema, String where) {
    for (String key : SUBSCHEMAS) {
      if (schema.path(key).isObject()) {
        schema(schema.path(key), where + " " + key);
      }
    }
    for (String key : SUBSCHEMA_LISTS) {
      schema.path(key).values().forEach(sub -> schema(sub, where + " " + key));
    }
    for (String key : SUBSCHEMA_MAPS) {
      for (Map.Entry<String, JsonNode> sub : schema.path(key).properties()) {
        schema(sub.getValue(), where + " " + key + " " + sub.getKey());
      }
    }
  }

  private static boolean matches(String type, JsonNode value) {
    return switch (type) {
      case "string" -> value.isString();
      case "integer" -> value.isIntegralNumber();
      case "number" -> value.isNumber();
      case "boolean" -> value.isBoolean();
      case "null" -> value.isNull();
      case "object" -> value.isObject();
      case "array" -> value.isArray();
      default -> false;
    };
  }
}
