package dev.matview.topology;

import dev.matview.view.DecimalBounds;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import tools.jackson.databind.ObjectMapper;

/** Chooses the serde of a key or value type: Kafka's own for simple types, JSON otherwise. */
public final class ViewSerdes {

  private static final Map<Class<?>, Serde<?>> SIMPLE =
      Map.of(
          String.class, Serdes.String(),
          Long.class, Serdes.Long(),
          Integer.class, Serdes.Integer(),
          UUID.class, Serdes.UUID(),
          Double.class, Serdes.Double());

  private static final Set<Class<?>> SIMPLE_KEY_TYPES =
      Set.of(String.class, Long.class, Integer.class, UUID.class);

  private final ObjectMapper mapper;

  private final ObjectMapper recordMapper;

  /**
   * Serdes whose JSON is read and written by {@code mapper}, decimals within the standard bounds.
   */
  public ViewSerdes(ObjectMapper mapper) {
    this(mapper, DecimalBounds.STANDARD);
  }

  /**
   * Serdes whose JSON is read and written by {@code mapper}, with every decimal of records and
   * aggregates within {@code bounds}.
   */
  public ViewSerdes(ObjectMapper mapper, DecimalBounds bounds) {
    this.mapper = mapper;
    this.recordMapper = BoundedDecimals.apply(mapper, bounds);
  }

  /** Whether {@code type} may be a key: String, Long, Integer, UUID or a record (as JSON). */
  public static boolean isSupportedKeyType(Class<?> type) {
    return SIMPLE_KEY_TYPES.contains(type) || type.isRecord();
  }

  /** The serde for {@code type}. */
  @SuppressWarnings("unchecked")
  public <T> Serde<T> forType(Class<T> type) {
    Serde<?> simple = SIMPLE.get(type);
    return simple != null ? (Serde<T>) simple : new JsonSerde<>(type, this.recordMapper);
  }

  /** The mapper used for JSON. */
  public ObjectMapper mapper() {
    return this.mapper;
  }
}
