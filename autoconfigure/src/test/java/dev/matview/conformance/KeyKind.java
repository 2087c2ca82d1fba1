package dev.matview.conformance;

import dev.matview.conformance.ConformanceApp.Pair;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.UUID;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Utils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The key types of the matrix and how they travel, written down from the README rather than taken
 * from Matview: their bytes on Kafka (String as UTF-8, Long as Kafka's 8-byte form, UUID as its
 * string, a record as JSON), their partition (Kafka's default partitioner: murmur2 of those bytes),
 * their form in a URL and in JSON.
 */
enum KeyKind {
  STRING("String", String.class),
  LONG("Long", Long.class),
  UUID("UUID", java.util.UUID.class),
  PAIR("Pair", Pair.class);

  private static final JsonMapper mapper = JsonMapper.builder().build();

  private final String typeName;

  private final Class<?> type;

  KeyKind(String typeName, Class<?> type) {
    this.typeName = typeName;
    this.type = type;
  }

  /** The simple name of the type, as {@code GET /views} names it. */
  String typeName() {
    return this.typeName;
  }

  /** The key's bytes on Kafka and in the view's store. */
  byte[] bytes(Object key) {
    return switch (this) {
      case STRING -> ((String) key).getBytes(StandardCharsets.UTF_8);
      case LONG -> ByteBuffer.allocate(Long.BYTES).putLong((Long) key).array();
      case UUID -> key.toString().getBytes(StandardCharsets.UTF_8);
      case PAIR -> mapper.writeValueAsBytes(key);
    };
  }

  /** The partition of {@code key} among {@code partitions}, as Kafka's default partitioner says. */
  int partition(Object key, int partitions) {
    return Utils.toPositive(Utils.murmur2(bytes(key))) % partitions;
  }

  /** Orders keys as a view's store does: by their bytes, unsigned. */
  Comparator<Object> storedOrder() {
    return (a, b) -> Arrays.compareUnsigned(bytes(a), bytes(b));
  }

  /** The key as written in a URL, path segment or query parameter, percent-encoded. */
  String inUrl(Object key) {
    String text = this == PAIR ? mapper.writeValueAsString(key) : key.toString();
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** The key as a JSON value, as a batch asks for it and answers carry it. */
  JsonNode json(Object key) {
    return mapper.valueToTree(key);
  }

  /** The key that an answer carries as {@code json}. */
  Object read(JsonNode json) {
    return switch (this) {
      case STRING -> json.isString() ? json.asString() : json.toString();
      case LONG -> json.isNumber() ? (Object) json.asLong() : json.toString();
      case UUID -> java.util.UUID.fromString(json.asString());
      case PAIR -> mapper.treeToValue(json, Pair.class);
    };
  }

  /**
   * A key in a URL that cannot be read as this type, or for String keys (any text is a String) one
   * longer than {@code matview.web.max-key-length} (1KB).
   */
  String badKeyInUrl() {
    return switch (this) {
      case STRING -> "k".repeat(1100);
      case LONG -> "twelve";
      case UUID -> "not-a-uuid";
      case PAIR -> URLEncoder.encode("{\"region\":", StandardCharsets.UTF_8);
    };
  }

  /** A batch key that cannot be read as this type. */
  JsonNode badKeyInBatch() {
    return this == STRING ? mapper.valueToTree(12) : mapper.valueToTree("not a " + this.typeName);
  }

  /** A serializer that writes {@link #bytes(Object)}. */
  Serializer<Object> serializer() {
    return (topic, key) -> bytes(key);
  }

  /** The Java type of the key. */
  Class<?> type() {
    return this.type;
  }

  /** Keys of this kind: the n-th one, distinct for distinct n. */
  Object nth(int n) {
    return switch (this) {
      case STRING -> "name-" + n;
      case LONG -> 1000L + 37L * n;
      case UUID -> new java.util.UUID(0x5eedL + n, 0x1234_5678_9abcL * (n + 1));
      case PAIR -> new Pair("region-" + (n % 5), "shop-" + n);
    };
  }
}
