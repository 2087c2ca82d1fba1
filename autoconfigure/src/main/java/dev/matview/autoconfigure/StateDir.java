package dev.matview.autoconfigure;

import java.io.File;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.util.StringUtils;

/** Kafka Streams' state dir as configured, or Kafka Streams' default when none is. */
final class StateDir {

  private StateDir() {}

  /** The state dir that Kafka Streams configured with {@code streams} uses. */
  static String of(@Nullable Properties streams) {
    Object stateDir = (streams != null) ? streams.get(StreamsConfig.STATE_DIR_CONFIG) : null;
    if (stateDir != null && StringUtils.hasText(stateDir.toString())) {
      return stateDir.toString();
    }
    return System.getProperty("java.io.tmpdir") + File.separator + "kafka-streams";
  }
}
