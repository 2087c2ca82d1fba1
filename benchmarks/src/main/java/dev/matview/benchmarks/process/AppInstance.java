package dev.matview.benchmarks.process;

import dev.matview.processes.ChildJvm;
import dev.matview.processes.LocalPorts;
import dev.matview.processes.http.HttpProbe;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;

/**
 * One instance of the benchmark app, or of a Spring Boot app written by hand beside it, in a JVM of
 * its own, on a local port and its own state dir.
 */
public final class AppInstance {

  private final String name;

  private final int port = LocalPorts.free();

  private final HttpProbe http = HttpProbe.of("http://127.0.0.1:" + this.port);

  private final HttpProbe health = this.http.withTimeout(Duration.ofSeconds(5));

  private final ChildJvm jvm;

  /**
   * An instance named {@code name} of {@code mainClass}, a Spring Boot app, as the application
   * {@code applicationId} reading {@code topic} on {@code bootstrapServers}, with its files under
   * {@code workDir}, {@code jvmOptions} and {@code properties} as further command-line properties.
   */
  public AppInstance(
      Class<?> mainClass,
      String name,
      Path workDir,
      String bootstrapServers,
      String applicationId,
      String topic,
      List<String> jvmOptions,
      Map<String, String> properties) {
    this.name = name;
    List<String> arguments = new ArrayList<>();
    arguments.add("--server.port=" + this.port);
    arguments.add("--spring.kafka.bootstrap-servers=" + bootstrapServers);
    arguments.add("--spring.kafka.streams.application-id=" + applicationId);
    arguments.add("--spring.kafka.streams.state-dir=" + workDir.resolve("state-" + name));
    arguments.add("--bench.topic=" + topic);
    properties.forEach((key, value) -> arguments.add("--" + key + "=" + value));
    this.jvm = new ChildJvm(name, jvmOptions, mainClass, arguments, workDir);
  }

  /** Starts the instance's JVM without waiting for it. */
  public void start() {
    this.jvm.start();
  }

  /** Kills the instance with SIGKILL (kill -9 by its PID). */
  public void kill() {
    this.jvm.kill();
  }

  /** Waits until the instance's views are ready to serve. */
  public void awaitServing(Duration bound) {
    Awaitility.await(this.name + " serving on port " + this.port)
        .atMost(bound)
        .pollInterval(Duration.ofMillis(250))
        .until(this::serving);
  }

  /** Whether the instance runs and its {@code matview} health component is UP. */
  public boolean serving() {
    requireAlive();
    try {
      return health().status() == 200;
    } catch (UncheckedIOException ex) {
      return false;
    }
  }

  /** The instance's {@code matview} health component, waiting at most 5 s for it. */
  public HttpProbe.Answer health() {
    return this.health.get("/actuator/health/matview");
  }

  /** Fails when the instance's JVM has exited. */
  public void requireAlive() {
    if (!this.jvm.isAlive()) {
      throw new IllegalStateException(this.name + " exited; see " + this.jvm.logFile());
    }
  }

  /** Requests to this instance, each waiting at most 10 s unless its timeout is changed. */
  public HttpProbe http() {
    return this.http;
  }

  /** The PID of the instance's JVM. */
  public long pid() {
    return this.jvm.pid();
  }

  /** The port the instance listens on. */
  public int port() {
    return this.port;
  }

  /** {@code 127.0.0.1:port}, as its answers name it in {@code Matview-Served-By}. */
  public String hostAndPort() {
    return "127.0.0.1:" + this.port;
  }

  /** The instance's name. */
  public String name() {
    return this.name;
  }
}
