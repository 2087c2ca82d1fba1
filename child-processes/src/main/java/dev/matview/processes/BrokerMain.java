package dev.matview.processes;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * The entry point of the broker's own JVM: a single-node KRaft broker and controller on 127.0.0.1
 * that formats its log dir on first start and keeps it across restarts.
 *
 * <p>Arguments: the client port, the controller port and the log dir.
 */
public final class BrokerMain {

  private BrokerMain() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      throw new IllegalArgumentException(
          "Expected <client port> <controller port> <log dir>, got " + args.length + " arguments");
    }
    int port = Integer.parseInt(args[0]);
    int controllerPort = Integer.parseInt(args[1]);
    Path logDir = Path.of(args[2]).toAbsolutePath();
    Map<String, String> config = config(port, controllerPort, logDir);
    if (!Files.exists(logDir.resolve("meta.properties"))) {
      format(config, logDir);
    }
    KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(config), Time.SYSTEM);
    server.startup();
    server.awaitShutdown();
  }

  private static Map<String, String> config(int port, int controllerPort, Path logDir) {
    return Map.ofEntries(
        Map.entry("process.roles", "broker,controller"),
        Map.entry("node.id", "1"),
        Map.entry(
            "listeners",
            "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort),
        Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port),
        Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
        Map.entry("inter.broker.listener.name", "PLAINTEXT"),
        Map.entry("controller.listener.names", "CONTROLLER"),
        Map.entry("controller.quorum.voters", "1@127.0.0.1:" + controllerPort),
        Map.entry("log.dirs", logDir.toString()),
        Map.entry("auto.create.topics.enable", "false"),
        Map.entry("num.partitions", "3"),
        Map.entry("offsets.topic.replication.factor", "1"),
        Map.entry("offsets.topic.num.partitions", "3"),
        Map.entry("transaction.state.log.replication.factor", "1"),
        Map.entry("transaction.state.log.min.isr", "1"),
        Map.entry("transaction.state.log.num.partitions", "3"),
        Map.entry("share.coordinator.state.topic.replication.factor", "1"),
        Map.entry("share.coordinator.state.topic.min.isr", "1"),
        Map.entry("group.initial.rebalance.delay.ms", "0"),
        Map.entry("group.min.session.timeout.ms", "1000"));
  }

  private static void format(Map<String, String> config, Path logDir) throws IOException {
    Files.createDirectories(logDir);
    Path configFile = logDir.resolveSibling(logDir.getFileName() + ".properties");
    Properties properties = new Properties();
    properties.putAll(config);
    try (Writer writer = Files.newBufferedWriter(configFile)) {
      properties.store(writer, null);
    }
    String[] args = {
      "format", "--config", configFile.toString(), "--cluster-id", Uuid.randomUuid().toString()
    };
    if (StorageTool.execute(args, new PrintStream(OutputStream.nullOutputStream())) != 0) {
      throw new IllegalStateException("Could not format the Kafka log dir " + logDir);
    }
  }
}
