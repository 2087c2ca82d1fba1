package dev.matview.devbroker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BuildFolderTests {

  @TempDir Path project;

  @Test
  void isMavensTargetWhereTheDirectoryHoldsNoGradleBuild() throws IOException {
    Files.writeString(this.project.resolve("pom.xml"), "<project/>");

    assertThat(BuildFolder.of(this.project)).isEqualTo(this.project.resolve("target"));
  }

  @Test
  void isTargetWhereTheDirectoryHoldsNoBuildAtAll() {
    assertThat(BuildFolder.of(this.project)).isEqualTo(this.project.resolve("target"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"})
  void isGradlesBuildWhereTheDirectoryHoldsAGradleScript(String script) throws IOException {
    Files.writeString(this.project.resolve(script), "");

    assertThat(BuildFolder.of(this.project)).isEqualTo(this.project.resolve("build"));
  }

  @Test
  void isAnAbsolutePathForTheWorkingDirectory() {
    assertThat(BuildFolder.of(Path.of("")))
        .isAbsolute()
        .isEqualTo(Path.of("target").toAbsolutePath());
  }
}
