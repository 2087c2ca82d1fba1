package dev.matview.broker;

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
import java.util.LinkedHashMap;
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

/**
 * A single-node Kafka broker and KRaft controller inside this JVM, on 127.0.0.1, that formats its
 * log dir on first start and keeps it across restarts.
 */
public final class KraftBroker implements AutoCloseable {

  private static final Duration STARTUP_BOUND = Duration.ofMinutes(2);

  private final int port;

  private final int controllerPort;

  private final Path logDir;

  private final Map<String, String> settings;

  private @Nullable KafkaRaftServer server;

  private @Nullable LogDirLock lock;

  /**
   * A broker that listens for clients on {@code port} (0 for any free port) and keeps its log in
   * {@code logDir}, its controller on a free port.
   */
  public KraftBroker(int port, Path logDir) {
    this(port, 0, logDir, Map.of());
  }

  /**
   * A broker that listens for clients on {@code port} and for its controller on {@code
   * controllerPort} (0 for any free port; the controller's is chosen again at each start), keeps
   * its log in {@code logDir}, and takes {@code settings} over its own.
   */
  public KraftBroker(int port, int controllerPort, Path logDir, Map<String, String> settings) {
    this.port = (port != 0) ? port : freePort();
    this.controllerPort = controllerPort;
    this.logDir = logDir.toAbsolutePath();
    this.settings = Map.copyOf(settings);
  }

  /** Formats the log dir if needed, starts the broker and waits until it answers clients. */
  public synchronized void start() {
    if (this.server != null) {
      throw new IllegalStateException("Kafka broker is already running");
    }
    LogDirLock locked = LogDirLock.acquire(this.logDir);
    try {
      this.server = started(config((this.controllerPort != 0) ? this.controllerPort : freePort()));
      this.lock = locked;
    } catch (RuntimeException ex) {
      locked.close();
      throw ex;
    }
  }

  private KafkaRaftServer started(Map<String, String> config) {
    if (!Files.exists(this.logDir.resolve("meta.properties"))) {
      format(config);
    }
    KafkaRaftServer started = new KafkaRaftServer(new KafkaConfig(config), Time.SYSTEM);
    try {
      started.startup();
      awaitReady();
    } catch (RuntimeException ex) {
      started.shutdown();
      started.awaitShutdown();
      throw ex;
    }
    return started;
  }

  /** Blocks until the broker has shut down. */
  public void awaitShutdown() {
    KafkaRaftServer running;
    synchronized (this) {
      running = this.server;
    }
    if (running != null) {
      running.awaitShutdown();
    }
  }

  /** The address that clients connect to. */
  public String bootstrapServers() {
    return "127.0.0.1:" + this.port;
  }

  /** The port of the client listener. */
  public int port() {
    return this.port;
  }

  /** The directory that holds the broker's log, as an absolute path. */
  public Path logDir() {
    return this.logDir;
  }

  /**
   * Shuts the broker down and waits until it has stopped, keeping the log dir, and releases the
   * dir's lock.
   */
  @Override
  public synchronized void close() {
    try {
      if (this.server != null) {
        this.server.shutdown();
        this.server.awaitShutdown();
        this.server = null;
      }
    } finally {
      if (this.lock != null) {
        this.lock.close();
        this.lock = null;
      }
    }
  }

  private Map<String, String> config(int controllerPort) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("process.roles", "broker,controller");
    config.put("node.id", "1");
    config.put(
        "listeners",
        "PLAINTEXT://127.0.0.1:" + this.port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    config.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + this.port);
    config.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    config.put("inter.broker.listener.name", "PLAINTEXT");
    config.put("controller.listener.names", "CONTROLLER");
    config.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    config.put("log.dirs", this.logDir.toString());
    config.put("auto.create.topics.enable", "true");
    config.put("num.partitions", "1");
    config.put("offsets.topic.replication.factor", "1");
    config.put("transaction.state.log.replication.factor", "1");
    config.put("transaction.state.log.min.isr", "1");
    config.put("share.coordinator.state.topic.replication.factor", "1");
    config.put("share.coordinator.state.topic.min.isr", "1");
    config.put("group.initial.rebalance.delay.ms", "0");
    config.putAll(this.settings);
    return config;
  }

  private void format(Map<String, String> config) {
    Path configFile = null;
    try {
      Files.createDirectories(this.logDir);
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
        throw new IllegalStateException("Could not format the Kafka log dir " + this.logDir);
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
            (int) STARTUP_BOUND.toMillis());
    try (Admin admin = Admin.create(config)) {
      admin.describeCluster().nodes().get(STARTUP_BOUND.toMillis(), TimeUnit.MILLISECONDS);
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
