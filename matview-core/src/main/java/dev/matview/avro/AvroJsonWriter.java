package dev.matview.avro;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;

/**
 * Writes Avro data as the JSON a reader of the record expects: a record as an object of its fields
 * in schema order, a value of a logical type as its Java value (a decimal as a number, a timestamp
 * as an ISO-8601 instant, written by the application's mapper), strings, enums and map keys as
 * strings, bytes and fixed as base64, a union as its branch.
 */
final class AvroJsonWriter {

  private final SpecificData model = AvroLogicalTypes.withConversions(new SpecificData());

  /** Writes {@code record} as an object of its fields. */
  void writeRecord(IndexedRecord record, JsonGenerator json, SerializationContext context) {
    json.writeStartObject(record);
    for (Schema.Field field : record.getSchema().getFields()) {
      json.writeName(field.name());
      write(record.get(field.pos()), field.schema(), json, context);
    }
    json.writeEndObject();
  }

  /** Writes {@code value}, Avro data of no known schema, by its own type. */
  void writeData(@Nullable Object value, JsonGenerator json, SerializationContext context) {
    if (value == null) {
      json.writeNull();
    } else if (value instanceof IndexedRecord record) {
      writeRecord(record, json, context);
    } else if (value instanceof CharSequence || value instanceof GenericEnumSymbol<?>) {
      json.writeString(value.toString());
    } else if (value instanceof Enum<?> symbol) {
      json.writeString(symbol.name());
    } else if (value instanceof ByteBuffer bytes) {
      json.writeBinary(bytes(bytes));
    } else if (value instanceof GenericFixed fixed) {
      json.writeBinary(fixed.bytes());
    } else if (value instanceof Map<?, ?> map) {
      json.writeStartObject(map);
      map.forEach(
          (key, entry) -> {
            json.writeName(String.valueOf(key));
            writeData(entry, json, context);
          });
      json.writeEndObject();
    } else if (value instanceof Collection<?> items) {
      json.writeStartArray(items);
      items.forEach(item -> writeData(item, json, context));
      json.writeEndArray();
    } else {
      context.writeValue(json, value);
    }
  }

  private void write(
      @Nullable Object value, Schema schema, JsonGenerator json, SerializationContext context) {
    if (value == null) {
      json.writeNull();
      return;
    }
    Schema type = (schema.getType() == Schema.Type.UNION) ? branch(schema, value) : schema;
    if (type == null) {
      writeData(value, json, context);
      return;
    }
    Object converted = converted(value, type);
    if (converted != null) {
      context.writeValue(json, converted);
      return;
    }
    switch (type.getType()) {
      case RECORD, ENUM, STRING, BYTES, FIXED, NULL -> writeData(value, json, context);
      case ARRAY -> writeArray(value, type.getElementType(), json, context);
      case MAP -> writeMap(value, type.getValueType(), json, context);
      default -> context.writeValue(json, value);
    }
  }

  private void writeArray(
      Object value, Schema items, JsonGenerator json, SerializationContext context) {
    if (!(value instanceof Collection<?> elements)) {
      writeData(value, json, context);
      return;
    }
    json.writeStartArray(elements);
    elements.forEach(element -> write(element, items, json, context));
    json.writeEndArray();
  }

  private void writeMap(
      Object value, Schema values, JsonGenerator json, SerializationContext context) {
    if (!(value instanceof Map<?, ?> entries)) {
      writeData(value, json, context);
      return;
    }
    json.writeStartObject(entries);
    entries.forEach(
        (key, entry) -> {
          json.writeName(String.valueOf(key));
          write(entry, values, json, context);
        });
    json.writeEndObject();
  }

  /** The branch of {@code union} that {@code value} belongs to, or null when none is known. */
  private @Nullable Schema branch(Schema union, Object value) {
    try {
      return union.getTypes().get(this.model.resolveUnion(union, value));
    } catch (AvroRuntimeException ex) {
      return null;
    }
  }

  /**
   * {@code value} as the Java value of {@code schema}'s logical type, or null when the schema has
   * no logical type that converts.
   */
  private @Nullable Object converted(Object value, Schema schema) {
    LogicalType logicalType = schema.getLogicalType();
    if (logicalType == null) {
      return null;
    }
    Conversion<?> conversion = this.model.getConversionFor(logicalType);
    if (conversion == null) {
      return null;
    }
    if (conversion.getConvertedType().isInstance(value)) {
      return value;
    }
    try {
      return Conversions.convertToLogicalType(value, schema, logicalType, conversion);
    } catch (RuntimeException ex) {
      return null;
    }
  }

  private static byte[] bytes(ByteBuffer buffer) {
    ByteBuffer bytes = buffer.duplicate();
    byte[] copy = new byte[bytes.remaining()];
    bytes.get(copy);
    return copy;
  }
}
