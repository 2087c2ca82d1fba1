package dev.matview.devbroker;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The build folder of a project's directory, where the development broker keeps its data. */
final class BuildFolder {

  private static final List<String> GRADLE_SCRIPTS =
      List.of("build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts");

  private BuildFolder() {}

  /**
   * {@code build} in {@code dir} where it holds a Gradle build script, else Maven's {@code target}.
   */
  static Path of(Path dir) {
    boolean gradle =
        GRADLE_SCRIPTS.stream().anyMatch(script -> Files.isRegularFile(dir.resolve(script)));
    return dir.resolve(gradle ? "build" : "target").toAbsolutePath().normalize();
  }
}
