package dev.matview.devbroker;

import dev.matview.broker.KraftBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.util.FileSystemUtils;

/**
 * Matview's development broker: a single-node KRaft broker running in this JVM, whose address every
 * Kafka client of the application takes as its {@link KafkaConnectionDetails}.
 */
public final class DevBroker implements KafkaConnectionDetails, AutoCloseable {

  private static final Log logger = LogFactory.getLog(DevBroker.class);

  private final KraftBroker broker;

  private final boolean deleteOnClose;

  private DevBroker(KraftBroker broker, boolean deleteOnClose) {
    this.broker = broker;
    this.deleteOnClose = deleteOnClose;
  }

  /**
   * Starts a broker on {@code port} of 127.0.0.1 (0 for a free one), its data in {@code dataDir}
   * when {@code keepData}, else in a new directory beside it that {@link #close()} deletes.
   */
  public static DevBroker start(int port, Path dataDir, boolean keepData) {
    Path logDir = keepData ? dataDir : freshDirectoryBeside(dataDir);
    KraftBroker broker = new KraftBroker(port, logDir);
    try {
      broker.start();
    } catch (RuntimeException ex) {
      if (!keepData) {
        FileSystemUtils.deleteRecursively(logDir.toFile());
      }
      throw new IllegalStateException(
          "Matview's development broker did not start on "
              + broker.bootstrapServers()
              + " with its data in "
              + broker.logDir()
              + ": "
              + sentence(ex.getMessage())
              + " Another copy of the application may be using that port or directory: stop it,"
              + " or set matview.dev-broker.port or matview.dev-broker.data-dir to another one"
              + " (matview.dev-broker.keep-data=false starts in a new directory each time).",
          ex);
    }
    if (logger.isInfoEnabled()) {
      logger.info(
          "Matview's development broker runs on "
              + broker.bootstrapServers()
              + ", its data in "
              + broker.logDir()
              + (keepData ? ", kept for the next start" : ", deleted when it stops"));
    }
    return new DevBroker(broker, !keepData);
  }

  @Override
  public List<String> getBootstrapServers() {
    return List.of(this.broker.bootstrapServers());
  }

  /** Plaintext, the broker's one listener, whatever security the application's properties set. */
  @Override
  public String getSecurityProtocol() {
    return "PLAINTEXT";
  }

  /** The directory that holds the broker's data. */
  public Path dataDir() {
    return this.broker.logDir();
  }

  /** Stops the broker and waits until it has, then deletes its data unless it is kept. */
  @Override
  public void close() {
    try {
      this.broker.close();
    } finally {
      if (this.deleteOnClose) {
        FileSystemUtils.deleteRecursively(this.broker.logDir().toFile());
      }
    }
  }

  private static String sentence(@Nullable String message) {
    String text = (message != null) ? message.strip() : "";
    return text.endsWith(".") ? text : text + ".";
  }

  private static Path freshDirectoryBeside(Path dataDir) {
    Path absolute = dataDir.toAbsolutePath();
    Path parent = Objects.requireNonNull(absolute.getParent(), "data-dir has no parent");
    try {
      Files.createDirectories(parent);
      return Files.createTempDirectory(parent, absolute.getFileName() + "-");
    } catch (IOException ex) {
      throw new UncheckedIOException(
          "Cannot create a directory for Matview's development broker in " + parent, ex);
    }
  }
}
