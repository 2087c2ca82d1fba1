package dev.matview.avro;

import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.util.Utf8;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * Writes Avro data as JSON: a specific or generic record as an object of its fields (not the
 * getters of its class, which would include its schema), a logical type as its Java value, Avro's
 * strings, enums, bytes and fixed as strings. Matview's auto-configuration adds it to the
 * application's JSON mapper when Avro is on the classpath.
 */
public final class AvroJacksonModule extends SimpleModule {

  private static final long serialVersionUID = 1L;

  /** The module, named {@code matview-avro}. */
  public AvroJacksonModule() {
    super("matview-avro");
    AvroDataSerializer serializer = new AvroDataSerializer(new AvroJsonWriter());
    addSerializer(IndexedRecord.class, serializer);
    addSerializer(Utf8.class, serializer);
    addSerializer(GenericEnumSymbol.class, serializer);
    addSerializer(GenericFixed.class, serializer);
  }

  /** Writes any Avro data with an {@link AvroJsonWriter}. */
  private static final class AvroDataSerializer extends StdSerializer<Object> {

    private final AvroJsonWriter writer;

    AvroDataSerializer(AvroJsonWriter writer) {
      super(Object.class);
      this.writer = writer;
    }

    @Override
    public void serialize(Object value, JsonGenerator json, SerializationContext context) {
      this.writer.writeData(value, json, context);
    }
  }
}
