package dev.matview.disk;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests for {@link StateDirSpace}. */
class StateDirSpaceTests {

  @TempDir Path directory;

  @Test
  void readsTheUsableSpaceOfTheStateDirsFileSystem() {
    StateDirSpace space = new StateDirSpace(this.directory);
    assertThat(space.usableBytes()).isPositive();
    assertThat(space.stateDir()).isEqualTo(this.directory.toAbsolutePath());
  }

  @Test
  void readsTheNearestExistingParentWhileTheStateDirIsNotCreatedYet() {
    StateDirSpace space = new StateDirSpace(this.directory.resolve("not/yet/there"));
    assertThat(space.usableBytes()).isPositive();
    assertThat(space.stateDir()).isEqualTo(this.directory.resolve("not/yet/there"));
  }

  @Test
  void makesARelativeStateDirAbsolute() {
    StateDirSpace space = new StateDirSpace(Path.of("data/../data/kafka-streams"));
    assertThat(space.stateDir()).isAbsolute();
    assertThat(space.stateDir())
        .isEqualTo(Path.of("").toAbsolutePath().resolve("data").resolve("kafka-streams"));
  }
}
