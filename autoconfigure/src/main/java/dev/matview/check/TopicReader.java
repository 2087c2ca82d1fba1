package dev.matview.check;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.jspecify.annotations.Nullable;

/** Asks the broker, in one round of concurrent requests, which topics exist and their settings. */
final class TopicReader {

  private static final Set<String> CONFIGS =
      Set.of(
          TopicConfig.CLEANUP_POLICY_CONFIG,
          TopicConfig.RETENTION_MS_CONFIG,
          TopicConfig.RETENTION_BYTES_CONFIG);

  private final Admin admin;

  private final Duration timeout;

  private final int timeoutMs;

  /** A reader that asks through {@code admin} and waits at most {@code timeout} in all. */
  TopicReader(Admin admin, Duration timeout) {
    this.admin = admin;
    this.timeout = timeout;
    this.timeoutMs = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
  }

  /**
   * Describes {@code topics}, and the cleanup settings of those of {@code configured} that exist,
   * failing on any error but an unknown topic.
   */
  TopicSnapshot read(Set<String> topics, Set<String> configured)
      throws ExecutionException, TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + this.timeout.toNanos();
    Map<String, KafkaFuture<TopicDescription>> descriptions =
        this.admin
            .describeTopics(topics, new DescribeTopicsOptions().timeoutMs(this.timeoutMs))
            .topicNameValues();
    Map<ConfigResource, KafkaFuture<Config>> configs =
        this.admin
            .describeConfigs(
                configured.stream()
                    .map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic))
                    .collect(Collectors.toSet()),
                new DescribeConfigsOptions().timeoutMs(this.timeoutMs))
            .values();
    Map<String, Integer> partitions = new HashMap<>();
    for (Map.Entry<String, KafkaFuture<TopicDescription>> entry : descriptions.entrySet()) {
      TopicDescription description = getUnlessUnknown(entry.getValue(), deadline);
      if (description != null) {
        partitions.put(entry.getKey(), description.partitions().size());
      }
    }
    Map<String, Map<String, String>> settings = new HashMap<>();
    for (Map.Entry<ConfigResource, KafkaFuture<Config>> entry : configs.entrySet()) {
      Config config = getUnlessUnknown(entry.getValue(), deadline);
      if (config != null) {
        settings.put(entry.getKey().name(), cleanupSettings(config));
      }
    }
    return TopicSnapshot.of(partitions, settings);
  }

  /** The names of the topics this client may see, or none: they only serve to suggest a topic. */
  Set<String> list() throws InterruptedException {
    try {
      return this.admin
          .listTopics(new ListTopicsOptions().timeoutMs(this.timeoutMs))
          .names()
          .get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException ex) {
      return Set.of();
    }
  }

  private static <T> @Nullable T getUnlessUnknown(KafkaFuture<T> future, long deadline)
      throws ExecutionException, TimeoutException, InterruptedException {
    try {
      return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException ex) {
      if (ex.getCause() instanceof UnknownTopicOrPartitionException) {
        return null;
      }
      throw ex;
    }
  }

  private static Map<String, String> cleanupSettings(Config config) {
    Map<String, String> settings = new HashMap<>();
    for (String name : CONFIGS) {
      ConfigEntry entry = config.get(name);
      if (entry != null && entry.value() != null) {
        settings.put(name, entry.value());
      }
    }
    return settings;
  }
}
