package dev.matview.autoconfigure;

import dev.matview.check.StartupChecks;
import dev.matview.kafka.MatviewConfigs;
import dev.matview.kafka.QuietStreamsConfig;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.streams.StreamsConfig;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * Creates the repartition topics of re-keyed views before Kafka Streams starts, as its first
 * rebalance would, since until they exist every metadata request of its main consumer logs a
 * warning; a topic that exists is left to the start-up checks, and when the broker cannot be asked
 * Kafka Streams creates them as it would have.
 */
final class RepartitionTopicsLifecycle extends BeforeServingLifecycle {

  private static final Log logger = LogFactory.getLog(RepartitionTopicsLifecycle.class);

  /** What Kafka Streams sets on a repartition topic, before the {@code topic.*} configs. */
  private static final Map<String, String> DEFAULTS =
      Map.of(
          TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE,
          TopicConfig.SEGMENT_BYTES_CONFIG, "52428800",
          TopicConfig.RETENTION_MS_CONFIG, "-1",
          TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "CreateTime");

  private final ViewRegistry registry;

  private final Duration timeout;

  /** Creates {@code registry}'s repartition topics, waiting at most {@code timeout} a request. */
  RepartitionTopicsLifecycle(
      Supplier<StreamsBuilderFactoryBean> factoryBean, ViewRegistry registry, Duration timeout) {
    super(factoryBean, 1);
    this.registry = registry;
    this.timeout = timeout;
  }

  @Override
  void run(Properties configuration) {
    Map<String, String> sourceByTopic = new LinkedHashMap<>();
    for (ResolvedView<?, ?, ?> view : this.registry.all()) {
      String topic = view.repartitionTopic(this.registry.applicationId());
      if (topic != null) {
        sourceByTopic.put(topic, view.sourceTopic());
      }
    }
    if (sourceByTopic.isEmpty()) {
      return;
    }
    QuietStreamsConfig config =
        new QuietStreamsConfig(MatviewConfigs.withoutMatviewKeys(configuration));
    Admin admin = null;
    try {
      admin =
          Admin.create(
              StartupChecks.adminConfig(
                  config,
                  this.registry.applicationId() + "-matview-repartition-topics",
                  this.timeout));
      create(admin, config, sourceByTopic);
    } catch (ExecutionException | TimeoutException | KafkaException ex) {
      logger.debug("Kafka Streams creates the repartition topics itself: " + ex);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    } finally {
      if (admin != null) {
        admin.close(Duration.ZERO);
      }
    }
  }

  private void create(Admin admin, QuietStreamsConfig config, Map<String, String> sourceByTopic)
      throws ExecutionException, TimeoutException, InterruptedException {
    Set<String> existing = now(admin.listTopics().names());
    sourceByTopic.keySet().removeAll(existing);
    sourceByTopic.values().removeIf(source -> !existing.contains(source));
    if (sourceByTopic.isEmpty()) {
      return;
    }
    Map<String, TopicDescription> sources =
        now(admin.describeTopics(Set.copyOf(sourceByTopic.values())).allTopicNames());
    Map<String, String> configs = new HashMap<>(DEFAULTS);
    config
        .originalsWithPrefix(StreamsConfig.TOPIC_PREFIX)
        .forEach((name, value) -> configs.put(name, String.valueOf(value)));
    int replication = config.getInt(StreamsConfig.REPLICATION_FACTOR_CONFIG);
    Optional<Short> replicationFactor =
        (replication > 0) ? Optional.of((short) replication) : Optional.empty();
    List<NewTopic> topics = new ArrayList<>();
    for (Map.Entry<String, String> topic : sourceByTopic.entrySet()) {
      TopicDescription source = sources.get(topic.getValue());
      if (source != null) {
        topics.add(
            new NewTopic(topic.getKey(), Optional.of(source.partitions().size()), replicationFactor)
                .configs(configs));
      }
    }
    for (KafkaFuture<Void> created : admin.createTopics(topics).values().values()) {
      try {
        now(created);
      } catch (ExecutionException ex) {
        if (!(ex.getCause() instanceof TopicExistsException)) {
          throw ex;
        }
      }
    }
  }

  private <T> T now(KafkaFuture<T> future)
      throws ExecutionException, TimeoutException, InterruptedException {
    return future.get(this.timeout.toMillis(), TimeUnit.MILLISECONDS);
  }
}
