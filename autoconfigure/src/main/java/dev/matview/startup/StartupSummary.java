package dev.matview.startup;

import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsMetadata;
import org.jspecify.annotations.Nullable;

/**
 * Logs at INFO, once Kafka Streams first runs, each view with its kind, source topic and
 * partitions, store and changelog topic, and the lookups' base URL; the partition counts are known
 * only when {@code application.server} is set, as it is with a web server.
 */
public final class StartupSummary implements KafkaStreams.StateListener {

  private static final Log logger = LogFactory.getLog(StartupSummary.class);

  private static final String UNKNOWN = "?";

  private static final List<String> HEADINGS =
      List.of("view", "kind", "source topic", "partitions", "store", "changelog topic");

  private final ViewRegistry registry;

  private final Supplier<@Nullable KafkaStreams> streams;

  private final Supplier<@Nullable String> baseUrl;

  private final AtomicBoolean logged = new AtomicBoolean();

  /** A summary of {@code registry}'s views, looked up under {@code baseUrl} (null without HTTP). */
  public StartupSummary(
      ViewRegistry registry,
      Supplier<@Nullable KafkaStreams> streams,
      Supplier<@Nullable String> baseUrl) {
    this.registry = registry;
    this.streams = streams;
    this.baseUrl = baseUrl;
  }

  @Override
  public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
    if (newState == KafkaStreams.State.RUNNING
        && logger.isInfoEnabled()
        && this.logged.compareAndSet(false, true)) {
      logger.info(
          format(
              this.registry.applicationId(),
              this.registry.all(),
              sourcePartitions(this.streams.get()),
              this.baseUrl.get()));
    }
  }

  /** The summary of {@code views} with their sources' partitions, under {@code baseUrl} if any. */
  public static String format(
      String applicationId,
      Collection<ResolvedView<?, ?, ?>> views,
      Map<String, Integer> partitionsByTopic,
      @Nullable String baseUrl) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(HEADINGS);
    for (ResolvedView<?, ?, ?> view : views) {
      Integer partitions = partitionsByTopic.get(view.sourceTopic());
      rows.add(
          List.of(
              view.name(),
              view.kind().label(),
              view.sourceTopic(),
              (partitions != null) ? partitions.toString() : UNKNOWN,
              view.storeName(),
              view.changelogTopic(applicationId)));
    }
    StringBuilder summary =
        new StringBuilder("Matview serves ")
            .append(views.size())
            .append(views.size() == 1 ? " view" : " views")
            .append(" of application '")
            .append(applicationId)
            .append("' ")
            .append(
                (baseUrl != null)
                    ? "at " + baseUrl
                    : "without lookups over HTTP (no web server, or matview.web.enabled=false)");
    int[] widths = widths(rows);
    for (List<String> row : rows) {
      summary.append(System.lineSeparator()).append(' ');
      for (int column = 0; column < row.size(); column++) {
        String cell = row.get(column);
        summary.append(' ').append(cell);
        if (column < row.size() - 1) {
          summary.append(" ".repeat(widths[column] - cell.length() + 1));
        }
      }
    }
    return summary.toString();
  }

  private static int[] widths(List<List<String>> rows) {
    int[] widths = new int[HEADINGS.size()];
    for (List<String> row : rows) {
      for (int column = 0; column < row.size(); column++) {
        widths[column] = Math.max(widths[column], row.get(column).length());
      }
    }
    return widths;
  }

  /** The partitions of the topics the instances of {@code streams} read, as its metadata says. */
  static Map<String, Integer> sourcePartitions(@Nullable KafkaStreams streams) {
    if (streams == null) {
      return Map.of();
    }
    Collection<StreamsMetadata> instances;
    try {
      instances = streams.metadataForAllStreamsClients();
    } catch (RuntimeException ex) {
      return Map.of();
    }
    return instances.stream()
        .flatMap((instance) -> instance.topicPartitions().stream())
        .distinct()
        .collect(Collectors.groupingBy(TopicPartition::topic, Collectors.summingInt((p) -> 1)));
  }
}
