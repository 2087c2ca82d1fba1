package dev.matview.processes;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.awaitility.Awaitility;

/**
 * A Kafka broker: {@link BrokerMain} in a JVM of its own, on local ports that stay its own across a
 * kill and a restart.
 */
public final class KafkaBroker implements AutoCloseable {

  private static final Duration STARTUP_BOUND = Duration.ofMinutes(2);

  private final int port = LocalPorts.free();

  private final int controllerPort = LocalPorts.free();

  private final ChildJvm jvm;

  /**
   * A broker whose log dir and temp dir lie under {@code workDir}, appending its output to {@code
   * logFile}.
   */
  public KafkaBroker(Path workDir, Path logFile) {
    this.jvm = new ChildJvm("kafka", javaArguments(workDir), workDir.resolve("tmp-kafka"), logFile);
  }

  /** Starts the broker and waits until it answers clients. */
  public void start() {
    this.jvm.start();
    Awaitility.await("Kafka broker on " + bootstrapServers())
        .atMost(STARTUP_BOUND)
        .pollInterval(Duration.ofMillis(300))
        .ignoreExceptions()
        .until(this::answers);
  }

  /**
   * Kills the broker with SIGKILL; {@link #start()} starts it again on the same ports and log dir.
   */
  public void kill() {
    this.jvm.kill();
  }

  /** Where clients connect. */
  public String bootstrapServers() {
    return "127.0.0.1:" + this.port;
  }

  /** Creates a topic with {@code partitions} partitions. */
  public void createTopic(String name, int partitions) {
    try (Admin admin = admin()) {
      admin
          .createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
          .all()
          .get(1, TimeUnit.MINUTES);
    } catch (Exception ex) {
      throw new IllegalStateException("Could not create topic " + name, ex);
    }
  }

  /**
   * Deletes {@code topic} and every topic whose name starts with {@code prefix}, such as an
   * application's changelogs, so that a later run finds the broker as this one found it.
   */
  public void deleteTopics(String topic, String prefix) {
    try (Admin admin = admin()) {
      List<String> doomed =
          admin.listTopics().names().get(1, TimeUnit.MINUTES).stream()
              .filter(name -> name.equals(topic) || name.startsWith(prefix))
              .toList();
      admin.deleteTopics(doomed).all().get(1, TimeUnit.MINUTES);
    } catch (Exception ex) {
      throw new IllegalStateException("Could not delete topic " + topic + " and " + prefix, ex);
    }
  }

  /** An admin client of this broker; the caller closes it. */
  public Admin admin() {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers(),
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            60_000,
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
            10_000));
  }

  @Override
  public void close() {
    this.jvm.kill();
  }

  private List<String> javaArguments(Path workDir) {
    return List.of(
        "-Xmx512m",
        "-XX:+UseSerialGC",
        "-cp",
        System.getProperty("java.class.path"),
        BrokerMain.class.getName(),
        Integer.toString(this.port),
        Integer.toString(this.controllerPort),
        workDir.resolve("kafka").toString());
  }

  private boolean answers() throws Exception {
    try (Admin admin = admin()) {
      return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
    }
  }
}
