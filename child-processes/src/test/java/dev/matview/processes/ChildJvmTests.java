package dev.matview.processes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildJvmTests {

  private static final Duration BOUND = Duration.ofMinutes(1);

  @TempDir Path workDir;

  @Test
  void runsAMainClassWithATempDirAndALogOfItsOwn() throws IOException {
    Path output = this.workDir.resolve("tmpdir.txt");
    ChildJvm jvm =
        new ChildJvm(
            "writer",
            List.of("-Xmx32m"),
            WritesItsTempDir.class,
            List.of(output.toString()),
            this.workDir);

    assertThat(jvm.runUntilItWrites(output, BOUND))
        .hasContent(this.workDir.resolve("tmp-writer").toString());
    assertThat(jvm.logFile())
        .isEqualTo(this.workDir.resolve("logs").resolve("writer.log"))
        .content(StandardCharsets.UTF_8)
        .contains("=== starting writer", "wrote " + output);
  }

  @Test
  void killEndsTheProcessByItsPid() {
    ChildJvm jvm =
        new ChildJvm("waiter", List.of("-Xmx32m"), WaitsForever.class, List.of(), this.workDir);
    assertThat(jvm.pid()).as("PID before a start").isEqualTo(-1);
    jvm.start();
    long pid = jvm.pid();
    assertThat(jvm.isAlive()).isTrue();

    jvm.kill();

    assertThat(jvm.isAlive()).isFalse();
    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("PID %d", pid).isEmpty();
  }

  /** Writes its {@code java.io.tmpdir} to the file named by its argument. */
  public static final class WritesItsTempDir {

    private WritesItsTempDir() {}

    public static void main(String[] args) throws IOException {
      Files.writeString(Path.of(args[0]), System.getProperty("java.io.tmpdir"));
      System.out.println("wrote " + args[0]);
    }
  }

  /** Waits until it is killed. */
  public static final class WaitsForever {

    private WaitsForever() {}

    public static void main(String[] args) throws InterruptedException {
      Thread.currentThread().join();
    }
  }
}
