package dev.matview.autoconfigure;

import java.lang.reflect.Field;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.config.KafkaStreamsCustomizer;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.util.ReflectionUtils;

/**
 * Reads the restore listener, state listener, streams customizer and client supplier a {@link
 * StreamsBuilderFactoryBean} already holds, for which spring-kafka has setters but no getters, so
 * that Matview can call them next to its own instead of replacing them.
 */
final class FactoryBeanSettings {

  private static final Log logger = LogFactory.getLog(FactoryBeanSettings.class);

  private FactoryBeanSettings() {}

  /** The global restore listener set on {@code factoryBean}, or {@code null}. */
  static @Nullable StateRestoreListener stateRestoreListener(
      StreamsBuilderFactoryBean factoryBean) {
    return read(factoryBean, "stateRestoreListener", StateRestoreListener.class);
  }

  /** The state listener set on {@code factoryBean}, or {@code null}. */
  static KafkaStreams.@Nullable StateListener stateListener(StreamsBuilderFactoryBean factoryBean) {
    return read(factoryBean, "stateListener", KafkaStreams.StateListener.class);
  }

  /** The streams customizer set on {@code factoryBean}, or {@code null}. */
  static @Nullable KafkaStreamsCustomizer kafkaStreamsCustomizer(
      StreamsBuilderFactoryBean factoryBean) {
    return read(factoryBean, "kafkaStreamsCustomizer", KafkaStreamsCustomizer.class);
  }

  /** The client supplier set on {@code factoryBean}, or {@code null}. */
  static @Nullable KafkaClientSupplier clientSupplier(StreamsBuilderFactoryBean factoryBean) {
    return read(factoryBean, "clientSupplier", KafkaClientSupplier.class);
  }

  private static <T> @Nullable T read(
      StreamsBuilderFactoryBean factoryBean, String name, Class<T> type) {
    Field field = ReflectionUtils.findField(StreamsBuilderFactoryBean.class, name, type);
    if (field == null) {
      logger.warn(
          ("Cannot read the %s a StreamsBuilderFactoryBeanConfigurer may have set on the factory "
                  + "bean; Matview's takes its place. Declare yours as a bean instead.")
              .formatted(type.getSimpleName()));
      return null;
    }
    ReflectionUtils.makeAccessible(field);
    return type.cast(ReflectionUtils.getField(field, factoryBean));
  }
}
