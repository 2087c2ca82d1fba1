package dev.matview.check;

import dev.matview.kafka.MatviewConfigs;
import dev.matview.kafka.QuietStreamsConfig;
import dev.matview.rocksdb.BoundedMemoryRocksDBConfigSetter;
import dev.matview.rocksdb.RocksDBMemoryLimits;
import dev.matview.topology.ViewRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.StreamsConfig;
import org.jspecify.annotations.Nullable;

/** Checks the views' topics with a short-lived {@link Admin}, failing with every problem. */
public final class StartupChecks {

  private static final Log logger = LogFactory.getLog(StartupChecks.class);

  /** How long a missing source topic is asked for again: a topic just created may not show yet. */
  private static final Duration SOURCE_SETTLE_TIME = Duration.ofSeconds(5);

  private static final Duration SOURCE_RETRY_INTERVAL = Duration.ofMillis(100);

  private final ViewRegistry registry;

  private final Duration timeout;

  /** Checks of the views of {@code registry} that wait at most {@code timeout} for the broker. */
  public StartupChecks(ViewRegistry registry, Duration timeout) {
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("The timeout must be positive, was " + timeout);
    }
    this.registry = registry;
    this.timeout = timeout;
  }

  /**
   * Checks the topics on the cluster that {@code streamsConfiguration} names, and gives a RocksDB
   * bound with the default memtable share the stores one instance may open ({@link
   * RocksDBMemoryLimits#PLANNED_STORES_CONFIG}).
   */
  public void run(Properties streamsConfiguration) {
    long start = System.nanoTime();
    QuietStreamsConfig config =
        new QuietStreamsConfig(MatviewConfigs.withoutMatviewKeys(streamsConfiguration));
    String bootstrapServers =
        String.join(",", config.getList(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
    ViewTopicChecks checks =
        new ViewTopicChecks(
            this.registry.all(),
            this.registry.applicationId(),
            config.getLong(StreamsConfig.WINDOW_STORE_CHANGE_LOG_ADDITIONAL_RETENTION_MS_CONFIG),
            bootstrapServers);
    TopicSnapshot snapshot = read(config, checks, bootstrapServers);
    List<TopicProblem> problems = checks.check(snapshot);
    if (!problems.isEmpty()) {
      throw StartupCheckException.topicProblems(bootstrapServers, problems);
    }
    StorePlan plan = StorePlan.of(this.registry.all(), snapshot);
    RocksDBMemoryLimits limits = checkMemoryBound(streamsConfiguration, plan);
    if (logger.isInfoEnabled()) {
      logger.info(
          "Checked "
              + checks.topics().size()
              + " topics of "
              + this.registry.all().size()
              + " views on "
              + bootstrapServers
              + " (up to "
              + plan.totalStores()
              + " RocksDB stores in one instance"
              + ((limits != null)
                  ? ", room for "
                      + limits.maxOpenStores()
                      + " in the bound, memtables flushed at "
                      + limits.writeBufferBytes() / (1024 * 1024)
                      + " MB"
                  : "")
              + ")"
              + " in "
              + Duration.ofNanos(System.nanoTime() - start).toMillis()
              + " ms: no problems");
    }
  }

  /** Returns the bound the stores of {@code plan} fit, or null when no bound is set. */
  private static @Nullable RocksDBMemoryLimits checkMemoryBound(
      Properties streamsConfiguration, StorePlan plan) {
    Object setter = streamsConfiguration.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG);
    String setterName = (setter instanceof Class<?> type) ? type.getName() : String.valueOf(setter);
    if (!BoundedMemoryRocksDBConfigSetter.class.getName().equals(setterName)) {
      return null;
    }
    Map<String, Object> configs = new HashMap<>();
    streamsConfiguration.forEach((key, value) -> configs.put(String.valueOf(key), value));
    RocksDBMemoryLimits limits = RocksDBMemoryLimits.fromConfigs(configs);
    if (plan.totalStores() > limits.maxOpenStores()) {
      throw StartupCheckException.memoryBoundTooSmall(plan, limits);
    }
    if (!configs.containsKey(RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG)) {
      streamsConfiguration.put(RocksDBMemoryLimits.PLANNED_STORES_CONFIG, plan.totalStores());
      return limits.withPlannedStores(plan.totalStores());
    }
    return limits;
  }

  private TopicSnapshot read(
      QuietStreamsConfig config, ViewTopicChecks checks, String bootstrapServers) {
    Admin admin;
    try {
      admin =
          Admin.create(
              adminConfig(
                  config, this.registry.applicationId() + "-matview-startup-checks", this.timeout));
    } catch (KafkaException ex) {
      throw StartupCheckException.brokerUnreachable(bootstrapServers, this.timeout, ex);
    }
    try {
      TopicReader reader = new TopicReader(admin, this.timeout);
      TopicSnapshot snapshot = reader.read(checks.topics(), checks.internalTopics());
      long settled = System.nanoTime() + SOURCE_SETTLE_TIME.toNanos();
      Set<String> missing = missingSources(checks, snapshot);
      while (!missing.isEmpty() && System.nanoTime() < settled) {
        Thread.sleep(SOURCE_RETRY_INTERVAL.toMillis());
        snapshot = snapshot.plus(reader.read(missing, Set.of()));
        missing = missingSources(checks, snapshot);
      }
      return missing.isEmpty() ? snapshot : snapshot.withListed(reader.list());
    } catch (TimeoutException ex) {
      throw StartupCheckException.brokerUnreachable(bootstrapServers, this.timeout, ex);
    } catch (ExecutionException ex) {
      Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
      if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
        throw StartupCheckException.brokerUnreachable(bootstrapServers, this.timeout, cause);
      }
      throw StartupCheckException.brokerFailed(bootstrapServers, cause);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw StartupCheckException.brokerUnreachable(bootstrapServers, this.timeout, ex);
    } finally {
      admin.close(Duration.ZERO);
    }
  }

  private static Set<String> missingSources(ViewTopicChecks checks, TopicSnapshot snapshot) {
    Set<String> missing = checks.sourceTopics();
    missing.removeIf(snapshot::exists);
    return missing;
  }

  /**
   * A short-lived admin client's configuration, as Kafka Streams' own, waiting at most {@code
   * timeout}.
   */
  public static Map<String, Object> adminConfig(
      QuietStreamsConfig config, String clientId, Duration timeout) {
    Map<String, Object> admin = config.getAdminConfigs(clientId);
    int timeoutMs = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
    admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
    return admin;
  }
}
