package dev.matview.topology;

import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/** Reads and writes one type as JSON with the application's Jackson mapper. */
public final class JsonSerde<T> implements Serde<T>, Serializer<T>, Deserializer<T> {

  private final Class<T> type;

  private final ObjectMapper mapper;

  /** A serde for {@code type} using {@code mapper}. */
  public JsonSerde(Class<T> type, ObjectMapper mapper) {
    this.type = Objects.requireNonNull(type, "type must not be null");
    this.mapper = Objects.requireNonNull(mapper, "mapper must not be null");
  }

  @Override
  public byte @Nullable [] serialize(String topic, @Nullable T data) {
    if (data == null) {
      return null;
    }
    try {
      return this.mapper.writeValueAsBytes(data);
    } catch (JacksonException ex) {
      throw new SerializationException(
          "Cannot write " + this.type.getName() + " as JSON: " + ex.getOriginalMessage(), ex);
    }
  }

  @Override
  public @Nullable T deserialize(String topic, byte @Nullable [] data) {
    if (data == null) {
      return null;
    }
    try {
      return this.mapper.readValue(data, this.type);
    } catch (JacksonException ex) {
      throw new SerializationException(
          "Cannot read JSON as " + this.type.getName() + ": " + ex.getOriginalMessage(), ex);
    }
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
