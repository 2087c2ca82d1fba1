package dev.matview.benchmarks.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.awaitility.Awaitility;

/** The run's Kafka broker: {@link BrokerMain} in a JVM of its own on a local port. */
public final class KafkaBroker implements AutoCloseable {

  private static final Duration STARTUP_BOUND = Duration.ofMinutes(2);

  private final int port = LocalPorts.free();

  private final ChildJvm jvm;

  /** A broker whose log dir, temp dir and log file lie under {@code workDir}. */
  public KafkaBroker(Path workDir) {
    this.jvm =
        new ChildJvm(
            "kafka",
            List.of("-Xmx512m", "-XX:+UseSerialGC"),
            BrokerMain.class,
            List.of(
                Integer.toString(this.port),
                Integer.toString(LocalPorts.free()),
                workDir.resolve("kafka").toString()),
            workDir);
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

  private boolean answers() throws Exception {
    try (Admin admin = admin()) {
      return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
    }
  }
}
