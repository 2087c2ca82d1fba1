package dev.matview.benchmarks.process;

import dev.matview.benchmarks.handwritten.HandWrittenLookupsApp;
import dev.matview.benchmarks.kafka.StreamsProgress;
import dev.matview.processes.ChildJvm;
import dev.matview.processes.KafkaBroker;
import dev.matview.processes.LocalPorts;
import dev.matview.processes.http.HttpProbe;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;

/**
 * The hand-written lookups app of row 1 in a JVM of its own, on a local port and its own state dir,
 * counting the orders of {@code topic} under an application id of its own.
 */
public final class HandWrittenLookupsInstance implements AutoCloseable {

  private final int port = LocalPorts.free();

  private final HttpProbe http = HttpProbe.of("http://127.0.0.1:" + this.port);

  private final String applicationId;

  private final String topic;

  private final ChildJvm jvm;

  /**
   * The app named {@code name}, with its files under {@code workDir}, run with {@code jvmOptions}.
   */
  public HandWrittenLookupsInstance(
      String name, Path workDir, KafkaBroker broker, String topic, List<String> jvmOptions) {
    this.applicationId = "bench-" + name;
    this.topic = topic;
    this.jvm =
        new ChildJvm(
            name,
            jvmOptions,
            HandWrittenLookupsApp.class,
            List.of(
                "--server.port=" + this.port,
                "--bench.bootstrap-servers=" + broker.bootstrapServers(),
                "--bench.topic=" + topic,
                "--bench.application-id=" + this.applicationId,
                "--bench.state-dir=" + workDir.resolve("state-" + name)),
            workDir);
  }

  /**
   * Starts the app and waits until it has counted every order of its topic and answers a lookup of
   * {@code knownKey}, within {@code bound}.
   */
  public void startAndAwaitServing(KafkaBroker broker, String knownKey, Duration bound) {
    this.jvm.start();
    StreamsProgress.awaitCaughtUp(
        broker, this.applicationId, this.topic, bound, this::requireAlive);
    Awaitility.await(this.applicationId + " answering on port " + this.port)
        .atMost(bound)
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> {
              requireAlive();
              try {
                return this.http.get(path(knownKey)).status() == 200;
              } catch (UncheckedIOException ex) {
                return false;
              }
            });
  }

  /**
   * Fails, with the app's answer, unless it answers {@code path} with a 200: a load of failing
   * lookups would measure its errors, not its lookups.
   */
  public void requireAnswers(String path) {
    HttpProbe.Answer answer = this.http.get(path);
    if (answer.status() != 200) {
      throw new IllegalStateException(
          this.applicationId
              + " answered "
              + path
              + " with "
              + answer.status()
              + ": "
              + answer.body());
    }
  }

  /** Where the app answers a lookup of {@code key}. */
  public static String path(String key) {
    return "/hand-written/orders-per-customer/keys/" + key;
  }

  /** Where the app answers a lookup of {@code key} through Kafka Streams' IQv2. */
  public static String interactiveQueryPath(String key) {
    return "/hand-written/orders-per-customer/iqv2/" + key;
  }

  /** The PID of the app's JVM. */
  public long pid() {
    return this.jvm.pid();
  }

  /** The port the app listens on. */
  public int port() {
    return this.port;
  }

  private void requireAlive() {
    if (!this.jvm.isAlive()) {
      throw new IllegalStateException(this.applicationId + " exited; see " + this.jvm.logFile());
    }
  }

  /** Kills the app's JVM. */
  @Override
  public void close() {
    this.jvm.kill();
  }
}
