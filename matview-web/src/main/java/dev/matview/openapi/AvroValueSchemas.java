package dev.matview.openapi;

import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.ComposedSchema;
import io.swagger.v3.oas.models.media.DateTimeSchema;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.NumberSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema.Field;
import org.apache.avro.Schema.Type;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.jspecify.annotations.Nullable;

/**
 * The schemas of Avro values as Matview writes them, read from a generated class's Avro schema
 * rather than its getters, which would describe its schema and model objects too.
 */
final class AvroValueSchemas {

  private final Set<String> open = new HashSet<>();

  private AvroValueSchemas() {}

  /** The schema of values of {@code type}, or null when it is not an Avro record. */
  static @Nullable Schema<?> of(Class<?> type) {
    if (!IndexedRecord.class.isAssignableFrom(type)) {
      return null;
    }
    if (!SpecificRecord.class.isAssignableFrom(type) || type.isInterface()) {
      return new ObjectSchema()
          .description("an Avro record of the view's schema, as the JSON object of its fields");
    }
    return new AvroValueSchemas().describe(SpecificData.get().getSchema(type));
  }

  private Schema<?> describe(org.apache.avro.Schema avro) {
    LogicalType logical = avro.getLogicalType();
    if (logical != null) {
      Schema<?> converted = logical(logical.getName());
      if (converted != null) {
        return converted;
      }
    }
    return switch (avro.getType()) {
      case RECORD -> record(avro);
      case ENUM -> new StringSchema()._enum(avro.getEnumSymbols());
      case ARRAY -> new ArraySchema().items(describe(avro.getElementType()));
      case MAP -> new ObjectSchema().additionalProperties(describe(avro.getValueType()));
      case UNION -> union(avro.getTypes());
      case STRING -> new StringSchema();
      case BYTES, FIXED -> new StringSchema().format("byte");
      case INT -> new IntegerSchema().format("int32");
      case LONG -> new IntegerSchema().format("int64");
      case FLOAT -> new NumberSchema().format("float");
      case DOUBLE -> new NumberSchema().format("double");
      case BOOLEAN -> new BooleanSchema();
      case NULL -> new Schema<>().nullable(true);
    };
  }

  private static @Nullable Schema<?> logical(String name) {
    return switch (name) {
      case "decimal", "big-decimal" -> new NumberSchema();
      case "uuid" -> new StringSchema().format("uuid");
      case "date" -> new StringSchema().format("date");
      case "time-millis", "time-micros" -> new StringSchema().format("time");
      case "timestamp-millis", "timestamp-micros", "timestamp-nanos" -> new DateTimeSchema();
      case "local-timestamp-millis", "local-timestamp-micros", "local-timestamp-nanos" ->
          new StringSchema().description("a local date and time, without a zone");
      default -> null;
    };
  }

  private Schema<?> record(org.apache.avro.Schema avro) {
    String name = avro.getFullName();
    if (!this.open.add(name)) {
      return new ObjectSchema().description("a " + name + " record, as above");
    }
    ObjectSchema record = new ObjectSchema();
    record.description(avro.getDoc() != null ? avro.getDoc() : "the Avro record " + name);
    List<String> required = new ArrayList<>();
    for (Field field : avro.getFields()) {
      record.addProperty(field.name(), describe(field.schema()));
      required.add(field.name());
    }
    this.open.remove(name);
    return record.required(required);
  }

  private Schema<?> union(List<org.apache.avro.Schema> branches) {
    List<org.apache.avro.Schema> values =
        branches.stream().filter(branch -> branch.getType() != Type.NULL).toList();
    boolean nullable = values.size() < branches.size();
    if (values.size() == 1) {
      return describe(values.get(0)).nullable(nullable ? Boolean.TRUE : null);
    }
    ComposedSchema either = new ComposedSchema();
    values.forEach(branch -> either.addOneOfItem(describe(branch)));
    return either.nullable(nullable ? Boolean.TRUE : null);
  }
}
