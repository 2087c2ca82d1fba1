package dev.matview.sample;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.jspecify.annotations.Nullable;

/** A single-node Kafka KRaft broker and controller that runs inside the current JVM. */
public class EmbeddedKafkaServer implements AutoCloseable {

  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

  private final Path dataDir;

  private final int port;

  private @Nullable KafkaRaftServer server;

  /**
   * Creates a server that listens on the given port (0 for any free port) and keeps its data in the
   * given directory.
   */
  public EmbeddedKafkaServer(int port, Path dataDir) {
    this.port = (port != 0) ? port : freePort();
    this.dataDir = dataDir.toAbsolutePath();
  }

  /** Formats the data directory if needed, starts the server and waits until it accepts clients. */
  public synchronized void start() {
    if (this.server != null) {
      throw new IllegalStateException("Kafka server is already running");
    }
    Map<String, String> config = config(freePort());
    if (!Files.exists(this.dataDir.resolve("meta.properties"))) {
      format(config);
    }
    KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(config), Time.SYSTEM);
    try {
      server.startup();
      awaitReady();
    } catch (RuntimeException ex) {
      server.shutdown();
      server.awaitShutdown();
      throw ex;
    }
    this.server = server;
  }

  /** Returns the address that clients use to connect to this server. */
  public String bootstrapServers() {
    return "127.0.0.1:" + this.port;
  }

  /** Returns the port of the client listener. */
  public int port() {
    return this.port;
  }

  /** Shuts the server down and waits until it has stopped, keeping the data directory. */
  @Override
  public synchronized void close() {
    if (this.server != null) {
      this.server.shutdown();
      this.server.awaitShutdown();
      this.server = null;
    }
  }

  private Map<String, String> config(int controllerPort) {
    return Map.ofEntries(
        Map.entry("process.roles", "broker,controller"),
        Map.entry("node.id", "1"),
        Map.entry(
            "listeners",
            "PLAINTEXT://127.0.0.1:" + this.port + ",CONTROLLER://127.0.0.1:" + controllerPort),
        Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + this.port),
        Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
        Map.entry("inter.broker.listener.name", "PLAINTEXT"),
        Map.entry("controller.listener.names", "CONTROLLER"),
        Map.entry("controller.quorum.voters", "1@127.0.0.1:" + controllerPort),
        Map.entry("log.dirs", this.dataDir.toString()),
        Map.entry("auto.create.topics.enable", "true"),
        Map.entry("num.partitions", "1"),
        Map.entry("offsets.topic.replication.factor", "1"),
        Map.entry("transaction.state.log.replication.factor", "1"),
        Map.entry("transaction.state.log.min.isr", "1"),
        Map.entry("share.coordinator.state.topic.replication.factor", "1"),
        Map.entry("share.coordinator.state.topic.min.isr", "1"),
        Map.entry("group.initial.rebalance.delay.ms", "0"));
  }

  private void format(Map<String, String> config) {
    Path configFile = null;
    try {
      Files.createDirectories(this.dataDir);
      configFile = Files.createTempFile("matview-kafka-", ".properties");
      Properties properties = new Properties();
      properties.putAll(config);
      try (Writer writer = Files.newBufferedWriter(configFile)) {
        properties.store(writer, null);
      }
      String[] args = {
        "format", "--config", configFile.toString(), "--cluster-id", Uuid.randomUuid().toString()
      };
      if (StorageTool.execute(args, new PrintStream(OutputStream.nullOutputStream())) != 0) {
        throw new IllegalStateException("Could not format Kafka data directory " + this.dataDir);
      }
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    } finally {
      deleteQuietly(configFile);
    }
  }

  private void awaitReady() {
    Map<String, Object> config =
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers(),
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            (int) STARTUP_TIMEOUT.toMillis());
    try (Admin admin = Admin.create(config)) {
      admin.describeCluster().nodes().get(STARTUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for Kafka to start", ex);
    } catch (ExecutionException | TimeoutException ex) {
      throw new IllegalStateException("Kafka did not start on " + bootstrapServers(), ex);
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  private static void deleteQuietly(@Nullable Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException ex) {
        file.toFile().deleteOnExit();
      }
    }
  }
}
