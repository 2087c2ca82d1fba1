package dev.matview.kafka;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Matview's own entries in a Kafka Streams configuration, those whose keys start with {@value
 * #PREFIX}: the RocksDB memory limits and the dead-letter handlers' collaborators.
 *
 * <p>Kafka Streams hands its configuration to the plugins it creates by class name (the RocksDB
 * config setter, the exception handlers), which is how they reach Matview's. It also copies every
 * key it does not know into the configuration of each producer, consumer and admin client, and each
 * of those reports, when it is created, the keys it was given and did not use. Matview's keys are
 * removed from those copies, never from Kafka Streams' own configuration.
 */
public final class MatviewConfigs {

  /** The prefix of Matview's keys in a Kafka Streams configuration. */
  public static final String PREFIX = "matview.";

  private MatviewConfigs() {}

  /** Whether {@code key} is one of Matview's. */
  public static boolean isMatviewKey(Object key) {
    return key instanceof String name && name.startsWith(PREFIX);
  }

  /** A copy of a client's {@code configs} without Matview's keys. */
  public static Map<String, Object> withoutMatviewKeys(Map<String, Object> configs) {
    Map<String, Object> copy = new HashMap<>(configs);
    copy.keySet().removeIf(MatviewConfigs::isMatviewKey);
    return copy;
  }

  /** A copy of a Kafka Streams configuration without Matview's keys, to create clients from. */
  public static Properties withoutMatviewKeys(Properties streamsConfiguration) {
    Properties copy = new Properties();
    streamsConfiguration.forEach(
        (key, value) -> {
          if (!isMatviewKey(key)) {
            copy.put(key, value);
          }
        });
    return copy;
  }
}
