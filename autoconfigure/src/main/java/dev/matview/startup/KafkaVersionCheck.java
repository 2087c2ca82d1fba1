package dev.matview.startup;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Warns, never stops start-up, when the application runs on a Kafka outside the lines Matview is
 * tested on, reading the version from the clients' {@code kafka/kafka-version.properties}, since
 * Kafka 4.4 moved {@code AppInfoParser} to an internal package.
 */
final class KafkaVersionCheck {

  /** The Kafka lines Matview is tested on (docs/support.md), as major.minor. */
  static final List<String> TESTED = List.of("4.1", "4.2", "4.3", "4.4");

  private static final String RESOURCE = "kafka/kafka-version.properties";

  private static final Pattern LINE = Pattern.compile("^(\\d+\\.\\d+)(\\.|$)");

  private static final Log logger = LogFactory.getLog(KafkaVersionCheck.class);

  private KafkaVersionCheck() {}

  /** The Kafka clients' version on the class path, or null when it cannot be read. */
  static @Nullable String onClassPath() {
    return read(KafkaVersionCheck.class.getClassLoader());
  }

  /** The Kafka clients' version that {@code loader} finds, or null when it cannot be read. */
  static @Nullable String read(ClassLoader loader) {
    try (InputStream in = loader.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return null;
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (IOException ex) {
      return null;
    }
  }

  /** Warns when {@code version} is not in a tested line; one that cannot be read passes. */
  static void check(@Nullable String version) {
    if (version == null) {
      return;
    }
    Matcher matcher = LINE.matcher(version);
    if (!matcher.find() || TESTED.contains(matcher.group(1)) || !logger.isWarnEnabled()) {
      return;
    }
    logger.warn(
        "Matview is tested on Kafka "
            + String.join(".x, ", TESTED)
            + ".x, and this application runs on Kafka "
            + version
            + "; if it fails to start or to serve the views, set the property kafka.version of"
            + " your build to a release of a tested line.");
  }
}
