package dev.matview.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The run's work dir: broker logs, state dirs, temp dirs and process logs, emptied at each start.
 */
final class WorkDir {

  private WorkDir() {}

  /** Deletes everything under {@code dir} and creates it empty. */
  static void clean(Path dir) {
    try {
      if (Files.exists(dir)) {
        try (Stream<Path> paths = Files.walk(dir)) {
          for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(path);
          }
        }
      }
      Files.createDirectories(dir);
    } catch (IOException ex) {
      throw new UncheckedIOException("Could not empty the work dir " + dir, ex);
    }
  }
}
