package dev.matview.failover;

import dev.matview.failover.OrderHistory.Order;
import dev.matview.health.PartitionLag;
import dev.matview.health.RestoreLagTracker;
import dev.matview.kafka.ActivePartitions;
import dev.matview.processes.http.HttpProbe;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.KafkaStreams;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * One instance of the application with two views of the topic named by {@code failover.topic}: a
 * count per customer and a count per customer and minute. Its settings are command-line arguments
 * so that system properties left by other tests in this JVM cannot override them.
 */
final class ViewInstance {

  static final String PER_CUSTOMER = "orders-per-customer";

  static final String PER_MINUTE = "orders-per-customer-per-minute";

  private final String name;

  private final ConfigurableApplicationContext context;

  private final HttpProbe http;

  private ViewInstance(String name, ConfigurableApplicationContext context) {
    this.name = name;
    this.context = context;
    int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    this.http = HttpProbe.localhost(port);
  }

  /** Starts an instance with {@code settings} and {@code beans} registered before any other. */
  static ViewInstance start(String name, Map<String, Object> beans, List<String> settings) {
    ConfigurableApplicationContext context =
        new SpringApplicationBuilder(FailoverApp.class)
            .initializers(
                (applicationContext) ->
                    beans.forEach(applicationContext.getBeanFactory()::registerSingleton))
            .run(settings.toArray(String[]::new));
    return new ViewInstance(name, context);
  }

  String name() {
    return this.name;
  }

  String address() {
    return this.http.address();
  }

  HttpProbe http() {
    return this.http;
  }

  boolean running() {
    return this.context.isActive();
  }

  KafkaStreams.State state() {
    KafkaStreams streams = streams();
    return streams != null ? streams.state() : KafkaStreams.State.CREATED;
  }

  /** The partitions of {@code topic} that this instance's stream threads hold as active tasks. */
  Set<Integer> activePartitions(String topic) {
    KafkaStreams streams = streams();
    return streams != null ? ActivePartitions.of(streams, topic) : Set.of();
  }

  /** What this instance's tracker knows about each local store partition. */
  List<PartitionLag> lags() {
    return this.context.getBean(RestoreLagTracker.class).snapshot();
  }

  /** Closes the application: Kafka Streams leaves the group, as {@code matview.*} says. */
  void close() {
    this.context.close();
  }

  /**
   * Closes the application, but Kafka Streams closes without leaving the group: the broker keeps
   * this static member, with its partitions, until it has missed its heartbeats for {@code
   * session.timeout.ms}.
   */
  void closeWithoutLeavingTheGroup() {
    this.context.getBean(StreamsBuilderFactoryBean.class).setLeaveGroupOnClose(false);
    this.context.close();
  }

  private @Nullable KafkaStreams streams() {
    if (!this.context.isActive()) {
      return null;
    }
    return this.context.getBean(StreamsBuilderFactoryBean.class).getKafkaStreams();
  }

  @Override
  public String toString() {
    return this.name + " (" + address() + ")";
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class FailoverApp {

    @MaterializedView(PER_CUSTOMER)
    ViewDefinition<String, Order, Long> ordersPerCustomer(Environment environment) {
      return Views.from(environment.getRequiredProperty("failover.topic"), Order.class).count();
    }

    @MaterializedView(PER_MINUTE)
    ViewDefinition<String, Order, Long> ordersPerCustomerPerMinute(Environment environment) {
      return Views.from(environment.getRequiredProperty("failover.topic"), Order.class)
          .eventTime(Order::at)
          .windowedBy(
              ViewWindow.tumbling(OrderHistory.WINDOW)
                  .withGrace(Duration.ofHours(1))
                  .withRetention(Duration.ofHours(2)))
          .count();
    }
  }
}
