package dev.matview.cluster;

import dev.matview.processes.http.HttpProbe;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * One instance of a test application in a cluster on a real broker: its context, its port, its
 * Kafka Streams and an HTTP client. Settings are command-line arguments so that system properties
 * left by other tests in this JVM (such as the embedded broker's address) cannot override them.
 */
final class ClusterInstance {

  private final ConfigurableApplicationContext context;

  private final int port;

  private final HttpProbe http;

  private ClusterInstance(ConfigurableApplicationContext context) {
    this.context = context;
    this.port = ((WebServerApplicationContext) context).getWebServer().getPort();
    this.http = HttpProbe.localhost(this.port);
  }

  /**
   * Starts {@code app} on a random port against {@code brokers} as a member of {@code
   * applicationId}, with its state in {@code stateDir}, advertised as {@code localhost}, and {@code
   * settings} on top, each replacing a default of the same name.
   */
  static ClusterInstance start(
      Class<?> app, String brokers, String applicationId, Path stateDir, String... settings) {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "--spring.main.banner-mode=off",
                "--server.port=0",
                "--spring.kafka.bootstrap-servers=" + brokers,
                "--spring.kafka.streams.application-id=" + applicationId,
                "--spring.kafka.streams.state-dir=" + stateDir,
                "--spring.kafka.streams.properties.commit.interval.ms=100",
                "--spring.kafka.admin.auto-create=true",
                "--matview.advertised-host=localhost",
                "--matview.rocksdb.total-memory=32MB"));
    for (String setting : settings) {
      String key = setting.substring(0, setting.indexOf('=') + 1);
      arguments.removeIf((argument) -> argument.startsWith(key));
      arguments.add(setting);
    }
    return new ClusterInstance(
        new SpringApplicationBuilder(app).run(arguments.toArray(String[]::new)));
  }

  ConfigurableApplicationContext context() {
    return this.context;
  }

  <T> T bean(Class<T> type) {
    return this.context.getBean(type);
  }

  WebServer webServer() {
    return ((WebServerApplicationContext) this.context).getWebServer();
  }

  /** The port its web server took at start-up. */
  int port() {
    return this.port;
  }

  /** The address under which Kafka Streams' metadata names this instance. */
  HostInfo host() {
    return new HostInfo("localhost", port());
  }

  HttpProbe http() {
    return this.http;
  }

  KafkaStreams streams() {
    return bean(StreamsBuilderFactoryBean.class).getKafkaStreams();
  }

  /** How many of its web server's request threads are busy now (Tomcat). */
  int requestThreadsBusy() {
    Executor executor =
        ((TomcatWebServer) webServer())
            .getTomcat()
            .getConnector()
            .getProtocolHandler()
            .getExecutor();
    return ((ThreadPoolExecutor) executor).getActiveCount();
  }

  boolean running() {
    return this.context.isActive();
  }

  void close() {
    this.context.close();
  }
}
