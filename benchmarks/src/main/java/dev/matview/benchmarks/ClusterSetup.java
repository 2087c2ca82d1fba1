package dev.matview.benchmarks;

import dev.matview.benchmarks.app.BenchApplication;
import dev.matview.benchmarks.kafka.OrdersProducer;
import dev.matview.benchmarks.process.AppInstance;
import dev.matview.processes.KafkaBroker;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one set-up of the benchmark app that every row uses: orders published to a topic of the run's
 * broker, and instances of the app that keep some of the views, with the run's settings.
 */
public final class ClusterSetup {

  private final BenchContext context;

  /** The set-up of a run with {@code context}'s broker, flags and work dir. */
  public ClusterSetup(BenchContext context) {
    this.context = context;
  }

  /**
   * Creates {@code topic} with {@code partitions} partitions on the run's broker and publishes
   * {@code orders} orders of {@code customers} customers to it.
   */
  public void publish(String topic, int partitions, long orders, long customers) {
    KafkaBroker broker = this.context.broker();
    broker.createTopic(topic, partitions);
    this.context.log(topic + ": publishing " + orders + " orders");
    OrdersProducer.publish(broker.bootstrapServers(), topic, orders, customers);
  }

  /**
   * An instance, not yet started, of {@code spec}'s application named {@code name}, with its files
   * under {@code dir} and the spec's JVM options, else the run's ({@code --app-jvm-options}).
   */
  public AppInstance instance(ClusterSpec spec, String name, Path dir) {
    return instance(
        name,
        dir,
        spec.applicationId(),
        spec.topic(),
        spec.views(),
        spec.jvmOptions().isEmpty() ? this.context.appJvmOptions() : spec.jvmOptions(),
        spec.properties());
  }

  /**
   * An instance, not yet started, named {@code name} of the application {@code applicationId}
   * reading {@code topic}, with its files under {@code dir}, keeping {@code views} only, in a JVM
   * with {@code jvmOptions}, with {@code properties} after the run's own.
   */
  public AppInstance instance(
      String name,
      Path dir,
      String applicationId,
      String topic,
      Collection<String> views,
      List<String> jvmOptions,
      Map<String, String> properties) {
    Map<String, String> all = new LinkedHashMap<>(viewSwitches(views));
    all.putAll(properties);
    return instanceOf(BenchApplication.class, name, dir, applicationId, topic, jvmOptions, all);
  }

  /**
   * An instance, not yet started, of {@code mainClass}, the benchmark app or a Spring Boot app
   * written by hand beside it, launched as every instance is: the same arguments, the run's
   * properties, then {@code properties}; so two apps launched here differ only in what they do.
   */
  public AppInstance instanceOf(
      Class<?> mainClass,
      String name,
      Path dir,
      String applicationId,
      String topic,
      List<String> jvmOptions,
      Map<String, String> properties) {
    Map<String, String> all = new LinkedHashMap<>(runProperties());
    all.putAll(properties);
    return new AppInstance(
        mainClass,
        name,
        dir,
        this.context.broker().bootstrapServers(),
        applicationId,
        topic,
        jvmOptions,
        all);
  }

  /**
   * The {@code bench.views.<name>} switches that keep {@code views} and leave the others out; the
   * app's views beyond the sample's three are off unless named.
   */
  public static Map<String, String> viewSwitches(Collection<String> views) {
    Map<String, String> switches = new LinkedHashMap<>();
    for (String view : ClusterSpec.ALL_VIEWS) {
      switches.put("bench.views." + view, Boolean.toString(views.contains(view)));
    }
    for (String view : views) {
      switches.put("bench.views." + view, "true");
    }
    return switches;
  }

  /**
   * The properties every instance gets: its Kafka Streams session timeout, {@code
   * --session-timeout-ms}, after which a killed instance's partitions move, and its servlet
   * container, {@code --container} ({@code tomcat}, the default, or {@code jetty}).
   */
  private Map<String, String> runProperties() {
    int sessionTimeout = this.context.flags().integer("session-timeout-ms", 6_000);
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(
        "spring.kafka.streams.properties.session.timeout.ms", Integer.toString(sessionTimeout));
    properties.put(
        "spring.kafka.streams.properties.heartbeat.interval.ms",
        Integer.toString(Math.max(250, sessionTimeout / 4)));
    properties.put(BenchApplication.CONTAINER, this.context.flags().text("container", "tomcat"));
    return properties;
  }
}
