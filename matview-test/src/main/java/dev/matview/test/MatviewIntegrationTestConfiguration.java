package dev.matview.test;

import dev.matview.autoconfigure.MatviewProperties;
import dev.matview.query.ViewQueryService;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.test.context.DynamicPropertyRegistrar;

/** What {@link MatviewIntegrationTest} adds to the application's context. */
@Configuration(proxyBeanMethods = false)
class MatviewIntegrationTestConfiguration {

  /** The property that {@link MatviewIntegrationTest#partitions()} sets. */
  static final String PARTITIONS_PROPERTY = "matview.test.partitions";

  /**
   * Points the application at the broker of its own test context, rather than through a system
   * property, which would outlive the context and reach the applications of later tests in the same
   * JVM; and keeps Kafka Streams' state in {@code stateDir}.
   */
  @Bean
  DynamicPropertyRegistrar matviewTestKafkaProperties(
      TestBroker broker, TemporaryDirectory stateDir) {
    return registry -> {
      registry.add("spring.kafka.bootstrap-servers", broker::bootstrapServers);
      registry.add("spring.kafka.streams.state-dir", () -> stateDir.path().toString());
    };
  }

  /**
   * The broker as the application's connection details, which every Kafka client of the application
   * takes, and before which Matview's development broker backs off when the application enables it.
   */
  @Bean
  KafkaConnectionDetails matviewTestKafkaConnectionDetails(TestBroker broker) {
    return () -> List.of(broker.bootstrapServers());
  }

  /**
   * The broker, started before the application's beans (the property registrar above needs it) and
   * so stopped after them, when Kafka Streams and every client of the context have closed.
   */
  @Bean
  TestBroker matviewTestBroker(Environment environment) {
    return TestBroker.start(environment.getProperty(PARTITIONS_PROPERTY, Integer.class, 1));
  }

  /** Kafka Streams' state directory, deleted when the context closes. */
  @Bean
  TemporaryDirectory matviewTestStateDir() {
    return TemporaryDirectory.create();
  }

  /**
   * The views' source topics that no {@link NewTopic} bean declares, which Spring Kafka's {@link
   * KafkaAdmin} creates before Kafka Streams starts, with the broker's default partitions.
   */
  @Bean
  KafkaAdmin.NewTopics matviewTestSourceTopics(
      ObjectProvider<ViewRegistry> registry, ObjectProvider<NewTopic> declared) {
    Set<String> declaredNames = declared.stream().map(NewTopic::name).collect(Collectors.toSet());
    NewTopic[] topics =
        registry.stream()
            .flatMap(views -> views.all().stream())
            .map(ResolvedView::sourceTopic)
            .distinct()
            .filter(topic -> !declaredNames.contains(topic))
            .map(topic -> new NewTopic(topic, Optional.empty(), Optional.empty()))
            .toArray(NewTopic[]::new);
    return new KafkaAdmin.NewTopics(topics);
  }

  @Bean
  ViewAwaiter matviewViewAwaiter(ViewQueryService queryService, ViewSerdes serdes) {
    return new ViewAwaiter(queryService, serdes.mapper());
  }

  @Bean
  MatviewTestPublisher matviewTestPublisher(
      TestBroker broker, ViewRegistry registry, ViewSerdes serdes) {
    return new MatviewTestPublisher(broker.bootstrapServers(), registry, serdes.mapper());
  }

  @Bean
  MatviewTestClient matviewTestClient(
      Environment environment,
      MatviewProperties properties,
      ViewRegistry registry,
      ViewSerdes serdes) {
    return new MatviewTestClient(
        new AppAddress(environment, properties.getWeb().basePathWithoutTrailingSlash()),
        registry,
        serdes.mapper());
  }
}
