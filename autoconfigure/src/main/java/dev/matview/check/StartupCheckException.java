package dev.matview.check;

import dev.matview.rocksdb.RocksDBMemoryLimits;
import dev.matview.view.StartupFailure;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Thrown before Kafka Streams starts when the views' topics or the broker cannot serve the views,
 * saying what is wrong and how to fix it.
 */
public class StartupCheckException extends RuntimeException implements StartupFailure {

  private static final String SKIP =
      "set matview.startup-checks.enabled=false to skip these checks";

  private final String description;

  private final String action;

  private final List<TopicProblem> problems;

  private StartupCheckException(
      String description, String action, List<TopicProblem> problems, @Nullable Throwable cause) {
    super(description + System.lineSeparator() + action, cause);
    this.description = description;
    this.action = action;
    this.problems = List.copyOf(problems);
  }

  /** The views' topics on the cluster at {@code bootstrapServers} have {@code problems}. */
  public static StartupCheckException topicProblems(
      String bootstrapServers, List<TopicProblem> problems) {
    String list =
        problems.stream()
            .map(problem -> " - " + problem)
            .collect(Collectors.joining(System.lineSeparator()));
    return new StartupCheckException(
        "Matview found "
            + (problems.size() == 1 ? "a problem" : problems.size() + " problems")
            + " with the views' topics on "
            + bootstrapServers
            + ":"
            + System.lineSeparator()
            + list,
        "Fix the topics as shown and start again, or " + SKIP + ".",
        problems,
        null);
  }

  /** The cluster at {@code bootstrapServers} did not answer within {@code timeout}. */
  public static StartupCheckException brokerUnreachable(
      String bootstrapServers, Duration timeout, @Nullable Throwable cause) {
    return new StartupCheckException(
        "Matview could not reach Kafka at "
            + bootstrapServers
            + " within "
            + timeout.toMillis()
            + " ms to check the views' topics before Kafka Streams starts.",
        "Check spring.kafka.bootstrap-servers (or spring.kafka.streams.bootstrap-servers) and that"
            + " the brokers are up; raise matview.startup-checks.timeout for a slow cluster, or "
            + SKIP
            + ".",
        List.of(),
        cause);
  }

  /** The cluster at {@code bootstrapServers} refused to describe the topics. */
  public static StartupCheckException brokerFailed(String bootstrapServers, Throwable cause) {
    return new StartupCheckException(
        "Kafka at "
            + bootstrapServers
            + " did not describe the views' topics: "
            + cause.getClass().getSimpleName()
            + ": "
            + cause.getMessage(),
        "Allow this application to Describe and DescribeConfigs its topics, or " + SKIP + ".",
        List.of(),
        cause);
  }

  /**
   * The memtables' floors of {@code plan}'s stores alone would fill the share of {@code limits} for
   * them.
   */
  public static StartupCheckException memoryBoundTooSmall(
      StorePlan plan, RocksDBMemoryLimits limits) {
    String perView =
        plan.storesByView().entrySet().stream()
            .map(view -> "'" + view.getKey() + "' " + view.getValue())
            .collect(Collectors.joining(", "));
    return new StartupCheckException(
        "The views need up to "
            + plan.totalStores()
            + " RocksDB stores in one instance ("
            + perView
            + "; a windowed or session view opens a store per segment), which an instance holds"
            + " when it runs alone or takes over after the others fail. "
            + RocksDBMemoryLimits.TOTAL_MEMORY_CONFIG
            + "="
            + mebibytes(limits.totalBytes())
            + " with "
            + RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG
            + "="
            + limits.writeBufferRatio()
            + " leaves "
            + mebibytes(limits.writeBufferBytes())
            + " for memtables, and every open store holds at least "
            + limits.memtableFloorBytes() / 1024
            + "KB of them: only "
            + limits.maxOpenStores()
            + " stores fit before RocksDB's memory outgrows its bound.",
        "Set "
            + RocksDBMemoryLimits.TOTAL_MEMORY_CONFIG
            + " to at least "
            + mebibytes(limits.totalBytesFor(plan.totalStores()))
            + ", give the views' source topics fewer partitions, or set"
            + " matview.rocksdb.bounded=false to give up the bound.",
        List.of(),
        null);
  }

  private static String mebibytes(long bytes) {
    return (bytes + (1024 * 1024) - 1) / (1024 * 1024) + "MB";
  }

  /** What is wrong. */
  @Override
  public String getDescription() {
    return this.description;
  }

  /** How to fix it. */
  @Override
  public String getAction() {
    return this.action;
  }

  /** The topics' problems, empty when the broker could not be asked. */
  public List<TopicProblem> getProblems() {
    return this.problems;
  }
}
