package dev.matview.kafka;

import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Kafka Streams' view of a configuration, without logging every value once more: the source of the
 * settings of the clients Matview makes beside Kafka Streams' own, configured as Kafka Streams
 * configures its own.
 */
public final class QuietStreamsConfig extends StreamsConfig {

  private static final long serialVersionUID = 1L;

  /** Kafka Streams' view of {@code properties}. */
  public QuietStreamsConfig(Properties properties) {
    super(properties, false);
  }
}
