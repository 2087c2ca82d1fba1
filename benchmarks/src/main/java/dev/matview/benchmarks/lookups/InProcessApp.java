package dev.matview.benchmarks.lookups;

import dev.matview.benchmarks.ClusterSetup;
import dev.matview.benchmarks.Clusters;
import dev.matview.benchmarks.app.BenchApplication;
import dev.matview.benchmarks.kafka.StreamsProgress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * The benchmark app inside the JVM that runs the JMH benchmarks, started once per JVM from system
 * properties: {@code bench.bootstrap-servers}, {@code bench.topic} and {@code bench.state-dir}.
 */
final class InProcessApp {

  static final String BOOTSTRAP = "bench.bootstrap-servers";

  static final String TOPIC = "bench.topic";

  static final String STATE_DIR = "bench.state-dir";

  /** Set in a JMH fork, which closes the app when its benchmark ends. */
  static final String FORKED = "bench.forked";

  private static @Nullable ConfigurableApplicationContext context;

  private static @Nullable StoreCopies storeCopies;

  private InProcessApp() {}

  /** The app, started on first use, once it has processed every order of its topic. */
  static synchronized ConfigurableApplicationContext get() {
    if (context == null || !context.isActive()) {
      context = start();
    }
    return context;
  }

  /**
   * Copies of the store whose changelog is {@code changelog}, of the running app, in Kafka Streams'
   * own store and in Matview's, started on first use.
   */
  static synchronized StoreCopies storeCopies(String changelog) {
    if (storeCopies == null) {
      Properties config = get().getBean(StreamsBuilderFactoryBean.class).getStreamsConfiguration();
      if (config == null) {
        throw new IllegalStateException("The app's Kafka Streams has no configuration");
      }
      storeCopies = StoreCopies.start(config, changelog);
    }
    return storeCopies;
  }

  /** Closes the app, and the copies of its store, when they run. */
  static synchronized void close() {
    if (storeCopies != null) {
      storeCopies.close();
      storeCopies = null;
    }
    if (context != null) {
      context.close();
      context = null;
    }
  }

  /** The app's Kafka Streams. */
  static KafkaStreams streams(ConfigurableApplicationContext app) {
    KafkaStreams streams = app.getBean(StreamsBuilderFactoryBean.class).getKafkaStreams();
    if (streams == null) {
      throw new IllegalStateException("Kafka Streams has not started");
    }
    return streams;
  }

  private static ConfigurableApplicationContext start() {
    String bootstrap = required(BOOTSTRAP);
    String topic = required(TOPIC);
    String applicationId = "bench-path-" + UUID.randomUUID();
    List<String> args = new ArrayList<>();
    args.add("--server.port=0");
    args.add("--spring.kafka.bootstrap-servers=" + bootstrap);
    args.add("--spring.kafka.streams.application-id=" + applicationId);
    args.add("--spring.kafka.streams.state-dir=" + required(STATE_DIR) + "/" + applicationId);
    args.add("--" + TOPIC + "=" + topic);
    ClusterSetup.viewSwitches(Set.of(Clusters.TABLE_VIEW))
        .forEach((name, value) -> args.add("--" + name + "=" + value));
    ConfigurableApplicationContext app = BenchApplication.run(args.toArray(String[]::new));
    try (Admin admin =
        Admin.create(java.util.Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      Awaitility.await(applicationId + " processing " + topic)
          .atMost(Duration.ofMinutes(5))
          .pollInterval(Duration.ofMillis(500))
          .until(
              () ->
                  streams(app).state() == KafkaStreams.State.RUNNING
                      && StreamsProgress.of(admin, applicationId, topic).caughtUp());
    }
    return app;
  }

  private static String required(String property) {
    String value = System.getProperty(property);
    if (value == null) {
      throw new IllegalStateException("System property " + property + " is not set");
    }
    return value;
  }
}
