package dev.matview.faults;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.awaitility.Awaitility;

/** The suite's Kafka broker: {@link BrokerMain} in a JVM of its own, on fixed local ports. */
final class KafkaBroker {

  private static final Duration STARTUP_BOUND = Duration.ofMinutes(2);

  private final int port = LocalPorts.free();

  private final ChildJvm jvm;

  KafkaBroker(Path workDir, Path logDir) {
    String classpath = System.getProperty("java.class.path");
    this.jvm =
        new ChildJvm(
            "kafka",
            List.of(
                "-Xmx512m",
                "-XX:+UseSerialGC",
                "-cp",
                classpath,
                BrokerMain.class.getName(),
                Integer.toString(this.port),
                Integer.toString(LocalPorts.free()),
                workDir.resolve("kafka").toString()),
            workDir.resolve("tmp-kafka"),
            logDir.resolve("kafka.log"));
  }

  /** Starts the broker and waits until it answers clients. */
  void start() {
    this.jvm.start();
    Awaitility.await("Kafka broker on " + bootstrapServers())
        .atMost(STARTUP_BOUND)
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(this::answers);
  }

  /** Kills the broker with SIGKILL. */
  void kill() {
    this.jvm.kill();
  }

  /** Where clients connect. */
  String bootstrapServers() {
    return "127.0.0.1:" + this.port;
  }

  /** Creates a topic with {@code partitions} partitions. */
  void createTopic(String name, int partitions) throws Exception {
    try (Admin admin = admin()) {
      admin
          .createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
          .all()
          .get(1, TimeUnit.MINUTES);
    }
  }

  private boolean answers() throws Exception {
    try (Admin admin = admin()) {
      return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
    }
  }

  private Admin admin() {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers(),
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            60_000,
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
            5_000));
  }
}
