package dev.matview.avro;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

/**
 * Reads and writes records of one Avro schema as plain Avro binary: a value is one record, all of
 * it, with no header; what cannot be read so throws a {@link SerializationException} that says why.
 */
final class AvroBinarySerde<T extends IndexedRecord>
    implements Serde<T>, Serializer<T>, Deserializer<T> {

  /** The magic byte and schema id of a value written through a schema registry. */
  private static final int REGISTRY_HEADER = 5;

  private final String name;

  private final Schema schema;

  private final DatumWriter<T> writer;

  private final DatumReader<T> reader;

  AvroBinarySerde(String name, Schema schema, DatumWriter<T> writer, DatumReader<T> reader) {
    this.name = name;
    this.schema = schema;
    this.writer = writer;
    this.reader = reader;
  }

  @Override
  public byte @Nullable [] serialize(String topic, @Nullable T data) {
    if (data == null) {
      return null;
    }
    Schema written = data.getSchema();
    if (written != this.schema && !this.schema.equals(written)) {
      throw new SerializationException(
          "Cannot write an Avro record of schema "
              + written.getFullName()
              + " with the serde of "
              + this.name
              + ": build the record with the serde's schema");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      this.writer.write(data, encoder);
      encoder.flush();
    } catch (IOException | RuntimeException ex) {
      throw new SerializationException(
          "Cannot write " + this.name + " as Avro binary: " + ex.getMessage(), ex);
    }
    return out.toByteArray();
  }

  @Override
  public @Nullable T deserialize(String topic, byte @Nullable [] data) {
    if (data == null) {
      return null;
    }
    BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(data, null);
    T record;
    boolean bytesLeft;
    try {
      record = this.reader.read(null, decoder);
      bytesLeft = !decoder.isEnd();
    } catch (IOException | RuntimeException ex) {
      throw unreadable(data, why(ex), ex);
    }
    if (bytesLeft) {
      throw unreadable(data, "bytes are left after the record", null);
    }
    return record;
  }

  private static String why(Exception ex) {
    if (ex instanceof EOFException) {
      return "the value ends before the record does";
    }
    return (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
  }

  private SerializationException unreadable(byte[] data, String why, @Nullable Exception cause) {
    String hint =
        (data.length >= REGISTRY_HEADER && data[0] == 0)
            ? "; a value written through a schema registry starts with a zero byte and a schema"
                + " id: read such a topic with the registry's serde"
            : "";
    return new SerializationException(
        "Cannot read " + data.length + " bytes as Avro binary of " + this.name + ": " + why + hint,
        cause);
  }

  @Override
  public Serializer<T> serializer() {
    return this;
  }

  @Override
  public Deserializer<T> deserializer() {
    return this;
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {}

  @Override
  public void close() {}
}
