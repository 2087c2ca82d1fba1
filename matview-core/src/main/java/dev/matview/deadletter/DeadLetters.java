package dev.matview.deadletter;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;
import org.jspecify.annotations.Nullable;

/**
 * What Matview's exception handlers need, handed to them through the Kafka Streams configuration
 * under {@link #CONFIG}, since Kafka Streams creates handlers by class name.
 */
public record DeadLetters(ViewLocator locator, DeadLetterPublisher publisher) {

  /** The Kafka Streams configuration key under which the handlers find this object. */
  public static final String CONFIG = "matview.dead-letters";

  /** The dead-letter topic of {@code applicationId} unless one is configured: its id and -dlq. */
  public static String defaultTopic(String applicationId) {
    return applicationId + "-dlq";
  }

  /**
   * Puts Matview's three dead-letter exception handlers and this object into {@code streams}, a
   * Kafka Streams configuration, replacing whatever handlers it named.
   */
  public void installIn(Map<Object, Object> streams) {
    streams.put(
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
        DeadLetterDeserializationExceptionHandler.class.getName());
    streams.put(
        StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
        DeadLetterProcessingExceptionHandler.class.getName());
    streams.put(
        StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
        DeadLetterProductionExceptionHandler.class.getName());
    streams.put(CONFIG, this);
  }

  /**
   * The object under {@link #CONFIG} in {@code configs}; throws {@link ConfigException} when there
   * is none.
   */
  public static DeadLetters from(Map<String, ?> configs) {
    Object value = configs.get(CONFIG);
    if (value instanceof DeadLetters deadLetters) {
      return deadLetters;
    }
    throw new ConfigException(
        CONFIG,
        value,
        "Matview's dead-letter exception handlers need a "
            + DeadLetters.class.getName()
            + " in the Kafka Streams configuration; Matview's auto-configuration puts it there");
  }

  /** {@code deadLetters}, which a handler's {@code configure} set; fails when it was not called. */
  static DeadLetters configured(@Nullable DeadLetters deadLetters) {
    if (deadLetters == null) {
      throw new IllegalStateException("The handler was used before configure(Map) was called");
    }
    return deadLetters;
  }
}
