package dev.matview.devbroker;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Configuration properties of Matview's development broker. */
@ConfigurationProperties(DevBrokerProperties.PREFIX)
public class DevBrokerProperties {

  /** The prefix of these properties. */
  public static final String PREFIX = "matview.dev-broker";

  /**
   * Whether the application starts a Kafka broker in its own JVM and connects every Kafka client to
   * it: for development and tests only, never in production.
   */
  private boolean enabled;

  /** Port of the broker's client listener on 127.0.0.1; 0 for a free port at each start. */
  private int port;

  /**
   * Directory of the broker's data. Defaults to "matview-dev-broker" in the working directory's
   * build folder: "build" where the working directory holds a Gradle build script, else "target".
   */
  private @Nullable Path dataDir;

  /**
   * Whether the broker's data (topics, records, the consumer groups' offsets) stays in data-dir for
   * the next start; when false, the broker starts empty in a new directory beside data-dir, deleted
   * when it stops.
   */
  private boolean keepData = true;

  public boolean isEnabled() {
    return this.enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public int getPort() {
    return this.port;
  }

  public void setPort(int port) {
    this.port = port;
  }

  public @Nullable Path getDataDir() {
    return this.dataDir;
  }

  public void setDataDir(@Nullable Path dataDir) {
    this.dataDir = dataDir;
  }

  public boolean isKeepData() {
    return this.keepData;
  }

  public void setKeepData(boolean keepData) {
    this.keepData = keepData;
  }
}
