package dev.matview.benchmarks.process;

import dev.matview.benchmarks.load.LoadDriver;
import dev.matview.benchmarks.load.LoadResult;
import dev.matview.processes.ChildJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Runs one round of the {@link LoadDriver} in a JVM of its own and reads what it measured. */
public final class LoadDriverProcess {

  private static final AtomicInteger ROUNDS = new AtomicInteger();

  private final Path workDir;

  private final Path pathsFile;

  private final int connections;

  private final double seconds;

  private final double warmupSeconds;

  /**
   * Rounds that send the request {@code paths} over {@code connections} connections for {@code
   * seconds} after {@code warmupSeconds}, with files under {@code workDir}.
   */
  public LoadDriverProcess(
      Path workDir, List<String> paths, int connections, double seconds, double warmupSeconds) {
    this.workDir = workDir;
    this.connections = connections;
    this.seconds = seconds;
    this.warmupSeconds = warmupSeconds;
    this.pathsFile = workDir.resolve("paths-" + ROUNDS.incrementAndGet() + ".txt");
    try {
      Files.createDirectories(workDir);
      Files.write(this.pathsFile, paths);
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /** Sends as fast as {@code port} answers. */
  public LoadResult saturate(int port) {
    return round(port, 0);
  }

  /** Sends {@code rate} requests a second to {@code port}. */
  public LoadResult atRate(int port, double rate) {
    return round(port, rate);
  }

  private LoadResult round(int port, double rate) {
    int round = ROUNDS.incrementAndGet();
    Path out = this.workDir.resolve("load-" + round + ".properties");
    ChildJvm driver =
        new ChildJvm(
            "load-" + round,
            List.of("-Xmx256m", "-XX:+UseSerialGC"),
            LoadDriver.class,
            List.of(
                "--port=" + port,
                "--paths=" + this.pathsFile,
                "--connections=" + this.connections,
                "--seconds=" + this.seconds,
                "--warmup-seconds=" + this.warmupSeconds,
                "--rate=" + rate,
                "--out=" + out),
            this.workDir);
    long bound = Math.round(this.seconds + this.warmupSeconds) + 60;
    return LoadResult.read(driver.runUntilItWrites(out, Duration.ofSeconds(bound)));
  }
}
