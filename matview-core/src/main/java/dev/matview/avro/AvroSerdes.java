package dev.matview.avro;

import java.util.Objects;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;

/**
 * Serdes of Avro records as plain Avro binary, one record a value with no header, read and written
 * with one schema; for a topic whose producers write through a schema registry, use the registry's
 * own serde instead.
 *
 * <pre>{@code
 * Views.from("orders", Order.class).valueSerde(AvroSerdes.specific(Order.class))
 * Views.from("visits", GenericRecord.class).valueSerde(AvroSerdes.generic(visitSchema))
 * }</pre>
 */
public final class AvroSerdes {

  private AvroSerdes() {}

  /**
   * A serde of the specific records of {@code type}, a class generated from an Avro schema, read
   * and written with that schema and the logical type conversions generated with it; throws {@link
   * IllegalArgumentException} when {@code type} holds no schema of its own.
   */
  public static <T extends SpecificRecord> Serde<T> specific(Class<T> type) {
    Objects.requireNonNull(type, "type must not be null");
    Schema schema;
    try {
      schema = SpecificData.getForClass(type).getSchema(type);
    } catch (AvroRuntimeException ex) {
      throw new IllegalArgumentException(
          type.getName()
              + " holds no Avro schema: pass a class generated from a schema (avro-maven-plugin),"
              + " or read GenericRecord values with AvroSerdes.generic(schema)",
          ex);
    }
    SpecificData model = new GeneratedClasses(type, schema, SpecificData.getForClass(type));
    return new AvroBinarySerde<>(
        type.getName(),
        schema,
        new SpecificDatumWriter<>(schema, model),
        new SpecificDatumReader<>(schema, schema, model));
  }

  /**
   * A serde of generic records of {@code schema}, a record schema; fields of the standard logical
   * types are read as Java's values ({@code BigDecimal}, {@code UUID}, {@code LocalDate}, {@code
   * LocalTime}, {@code Instant}, {@code LocalDateTime}), strings as Avro's {@code Utf8}; throws
   * {@link IllegalArgumentException} when {@code schema} is not a record's.
   */
  public static Serde<GenericRecord> generic(Schema schema) {
    Objects.requireNonNull(schema, "schema must not be null");
    if (schema.getType() != Schema.Type.RECORD) {
      throw new IllegalArgumentException(
          "The Avro schema "
              + schema.getFullName()
              + " is of type "
              + schema.getType().getName()
              + ", not a record: pass the schema of the topic's record values");
    }
    GenericData model = AvroLogicalTypes.withConversions(new GenericData());
    return new AvroBinarySerde<>(
        schema.getFullName(),
        schema,
        new GenericDatumWriter<>(schema, model),
        new GenericDatumReader<>(schema, schema, model));
  }
}
