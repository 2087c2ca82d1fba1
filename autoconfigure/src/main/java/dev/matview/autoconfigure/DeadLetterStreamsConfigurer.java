package dev.matview.autoconfigure;

import dev.matview.deadletter.DeadLetterDeserializationExceptionHandler;
import dev.matview.deadletter.DeadLetterProcessingExceptionHandler;
import dev.matview.deadletter.DeadLetterProductionExceptionHandler;
import dev.matview.deadletter.DeadLetters;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.LogAndFailExceptionHandler;
import org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * Installs Matview's dead-letter exception handlers where the user set none, or Kafka's
 * log-and-fail ones when dead letters are disabled.
 */
final class DeadLetterStreamsConfigurer implements StreamsBuilderFactoryBeanConfigurer {

  private static final String DEPRECATED_DESERIALIZATION_HANDLER =
      "default.deserialization.exception.handler";

  private static final String DEPRECATED_PRODUCTION_HANDLER =
      "default.production.exception.handler";

  private final @Nullable DeadLetters deadLetters;

  private DeadLetterStreamsConfigurer(@Nullable DeadLetters deadLetters) {
    this.deadLetters = deadLetters;
  }

  /** Handlers that send unusable records to the dead-letter topic and go on. */
  static DeadLetterStreamsConfigurer publishing(DeadLetters deadLetters) {
    return new DeadLetterStreamsConfigurer(deadLetters);
  }

  /** Handlers that log an unusable record and stop Kafka Streams. */
  static DeadLetterStreamsConfigurer failing() {
    return new DeadLetterStreamsConfigurer(null);
  }

  @Override
  public void configure(StreamsBuilderFactoryBean factoryBean) {
    Properties streams = factoryBean.getStreamsConfiguration();
    if (streams == null) {
      return;
    }
    boolean installed = false;
    if (!streams.containsKey(DEPRECATED_DESERIALIZATION_HANDLER)
        && !streams.containsKey(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG)) {
      Class<? extends DeserializationExceptionHandler> handler =
          (this.deadLetters != null)
              ? DeadLetterDeserializationExceptionHandler.class
              : LogAndFailExceptionHandler.class;
      streams.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, handler.getName());
      installed = true;
    }
    if (!streams.containsKey(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG)) {
      Class<? extends ProcessingExceptionHandler> handler =
          (this.deadLetters != null)
              ? DeadLetterProcessingExceptionHandler.class
              : LogAndFailProcessingExceptionHandler.class;
      streams.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, handler.getName());
      installed = true;
    }
    if (this.deadLetters != null
        && !streams.containsKey(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG)
        && !streams.containsKey(DEPRECATED_PRODUCTION_HANDLER)) {
      streams.put(
          StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
          DeadLetterProductionExceptionHandler.class.getName());
      installed = true;
    }
    if (installed && this.deadLetters != null) {
      streams.put(DeadLetters.CONFIG, this.deadLetters);
    }
    factoryBean.setStreamsConfiguration(streams);
  }

  @Override
  public int getOrder() {
    return 0;
  }
}
