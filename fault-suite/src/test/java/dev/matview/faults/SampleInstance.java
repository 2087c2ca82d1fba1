package dev.matview.faults;

import dev.matview.processes.ChildJvm;
import dev.matview.processes.LocalPorts;
import dev.matview.processes.http.HttpProbe;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;

/**
 * One copy of the sample jar on a fixed local port and its own state dir, both kept across
 * restarts, so a restarted instance comes back as the same member of the group.
 */
final class SampleInstance {

  /** How long a request may take before the suite counts it as timed out. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

  private final String name;

  private final int port = LocalPorts.free();

  private final HttpProbe http =
      HttpProbe.of("http://127.0.0.1:" + this.port).withTimeout(REQUEST_TIMEOUT);

  private final ChildJvm jvm;

  SampleInstance(int number, Path sampleJar, String bootstrapServers, Path workDir, Path logDir) {
    this.name = "instance-" + number;
    this.jvm =
        new ChildJvm(
            this.name,
            List.of(
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-jar",
                sampleJar.toString(),
                "--spring.main.banner-mode=off",
                "--server.address=127.0.0.1",
                "--server.port=" + this.port,
                "--sample.embedded-kafka.enabled=false",
                "--sample.generator.enabled=false",
                "--spring.kafka.bootstrap-servers=" + bootstrapServers,
                "--spring.kafka.streams.state-dir=" + workDir.resolve("streams-" + number),
                "--spring.kafka.streams.replication-factor=1",
                "--spring.kafka.streams.properties.processing.guarantee=exactly_once_v2",
                "--spring.kafka.streams.properties.session.timeout.ms=6000",
                "--matview.advertised-host=127.0.0.1",
                "--matview.standby-replicas=1",
                "--matview.rocksdb.total-memory=64MB",
                "--matview.health.min-free-disk=0"),
            workDir.resolve("tmp-" + number),
            logDir.resolve(this.name + ".log"));
  }

  /** Starts the instance's JVM without waiting for it. */
  void start() {
    this.jvm.start();
  }

  /** Kills the instance with SIGKILL (kill -9 by its PID). */
  void kill() {
    this.jvm.kill();
  }

  /** Waits until the instance's views are ready to serve. */
  void awaitServing(Duration bound) {
    Awaitility.await(this.name + " serving on port " + this.port)
        .atMost(bound)
        .pollInterval(Duration.ofMillis(500))
        .until(this::serving);
  }

  /** Whether the instance is running and its {@code matview} health component is UP. */
  boolean serving() {
    if (!this.jvm.isAlive()) {
      throw new IllegalStateException(
          this.name + " exited; see " + this.jvm.logFile().toAbsolutePath());
    }
    try {
      return this.http.get("/actuator/health/matview").status() == 200;
    } catch (UncheckedIOException ex) {
      return false;
    }
  }

  /** Requests to this instance, each waiting at most {@link #REQUEST_TIMEOUT}. */
  HttpProbe http() {
    return this.http;
  }

  /** The instance's name, such as {@code instance-1}. */
  String name() {
    return this.name;
  }

  @Override
  public String toString() {
    return this.name + " (127.0.0.1:" + this.port + ", PID " + this.jvm.pid() + ")";
  }
}
