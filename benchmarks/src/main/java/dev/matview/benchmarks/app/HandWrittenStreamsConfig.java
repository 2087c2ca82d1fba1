package dev.matview.benchmarks.app;

import dev.matview.benchmarks.Flags;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The Kafka Streams settings of the baselines written by hand: those the benchmark app's own
 * Streams get from its {@code application.yml} (commit interval, replication), Kafka's defaults
 * otherwise, with the application id, bootstrap servers and state dir from {@code
 * --application-id}, {@code --bootstrap-servers} and {@code --state-dir}.
 */
public final class HandWrittenStreamsConfig {

  private HandWrittenStreamsConfig() {}

  /** The settings, {@code applicationId} when {@code --application-id} is absent. */
  public static Properties of(Flags flags, String applicationId) {
    return of(
        flags.text("application-id", applicationId),
        flags.text("bootstrap-servers", ""),
        flags.text("state-dir", "state"));
  }

  /**
   * The settings of {@code applicationId} on {@code bootstrapServers}, state in {@code stateDir}.
   */
  public static Properties of(String applicationId, String bootstrapServers, String stateDir) {
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
    config.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 1000);
    config.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
    return config;
  }
}
