package dev.matview.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.util.FileSystemUtils;

/** A directory of its own for Kafka's files, deleted with everything in it on close. */
final class TemporaryDirectory implements AutoCloseable {

  private final Path path;

  private TemporaryDirectory(Path path) {
    this.path = path;
  }

  /** A new empty directory under the system's temporary directory. */
  static TemporaryDirectory create() {
    return create("matview-test-");
  }

  /** A new empty directory under the system's temporary directory, named from {@code prefix}. */
  static TemporaryDirectory create(String prefix) {
    try {
      return new TemporaryDirectory(Files.createTempDirectory(prefix));
    } catch (IOException ex) {
      throw new UncheckedIOException(
          "Cannot create a directory for Kafka's files under java.io.tmpdir", ex);
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
