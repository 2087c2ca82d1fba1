package dev.matview.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.util.FileSystemUtils;

/** A directory of its own for Kafka Streams' state, deleted with everything in it on close. */
final class TemporaryDirectory implements AutoCloseable {

  private final Path path;

  private TemporaryDirectory(Path path) {
    this.path = path;
  }

  /** A new empty directory under the system's temporary directory. */
  static TemporaryDirectory create() {
    try {
      return new TemporaryDirectory(Files.createTempDirectory("matview-test-"));
    } catch (IOException ex) {
      throw new UncheckedIOException(
          "Cannot create a directory for Kafka Streams' state under java.io.tmpdir", ex);
    }
  }

  /** The directory. */
  Path path() {
    return this.path;
  }

  @Override
  public void close() {
    FileSystemUtils.deleteRecursively(this.path.toFile());
  }
}
