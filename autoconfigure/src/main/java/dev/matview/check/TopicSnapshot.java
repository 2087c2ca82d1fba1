package dev.matview.check;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.TopicConfig;
import org.jspecify.annotations.Nullable;

/** What the broker said of the topics asked for: partitions, configuration, names listed. */
public final class TopicSnapshot {

  /** The value of a retention limit that keeps records however old or large a partition grows. */
  static final long UNLIMITED = -1;

  private final Map<String, Integer> partitions;

  private final Map<String, Map<String, String>> configs;

  private final Set<String> listed;

  private TopicSnapshot(
      Map<String, Integer> partitions,
      Map<String, Map<String, String>> configs,
      Set<String> listed) {
    this.partitions = Map.copyOf(partitions);
    this.configs = Map.copyOf(configs);
    this.listed = Set.copyOf(listed);
  }

  /** A snapshot of existing topics' partition counts and of some of their configurations. */
  public static TopicSnapshot of(
      Map<String, Integer> partitions, Map<String, Map<String, String>> configs) {
    return new TopicSnapshot(partitions, configs, Set.of());
  }

  /** This snapshot with what {@code newer} says about its topics. */
  public TopicSnapshot plus(TopicSnapshot newer) {
    Map<String, Integer> partitions = new HashMap<>(this.partitions);
    partitions.putAll(newer.partitions);
    Map<String, Map<String, String>> configs = new HashMap<>(this.configs);
    configs.putAll(newer.configs);
    Set<String> listed = new HashSet<>(this.listed);
    listed.addAll(newer.listed);
    return new TopicSnapshot(partitions, configs, listed);
  }

  /** This snapshot with the names of the topics the broker {@code listed}. */
  public TopicSnapshot withListed(Set<String> listed) {
    return plus(new TopicSnapshot(Map.of(), Map.of(), listed));
  }

  /** Whether {@code topic} exists. */
  public boolean exists(String topic) {
    return this.partitions.containsKey(topic);
  }

  /** The names of the existing topics known: those described and those listed. */
  public Set<String> names() {
    Set<String> names = new HashSet<>(this.listed);
    names.addAll(this.partitions.keySet());
    return names;
  }

  /** The partition count of {@code topic}, or empty when it does not exist. */
  public OptionalInt partitions(String topic) {
    Integer count = this.partitions.get(topic);
    return count != null ? OptionalInt.of(count) : OptionalInt.empty();
  }

  /** The value of the topic config {@code name} of {@code topic}, or {@code null} if not read. */
  public @Nullable String config(String topic, String name) {
    Map<String, String> config = this.configs.get(topic);
    return config != null ? config.get(name) : null;
  }

  /** The lower-case {@code cleanup.policy} values of {@code topic}, empty if not read. */
  Set<String> cleanupPolicy(String topic) {
    String value = config(topic, TopicConfig.CLEANUP_POLICY_CONFIG);
    if (value == null) {
      return Set.of();
    }
    return Arrays.stream(value.replace("[", "").replace("]", "").split(","))
        .map(part -> part.trim().toLowerCase(Locale.ROOT))
        .filter(part -> !part.isEmpty())
        .collect(Collectors.toCollection(LinkedHashSet::new));
  }

  /**
   * The retention limit {@code name} of {@code topic}, or {@link #UNLIMITED} when not read or no
   * number.
   */
  long limit(String topic, String name) {
    String value = config(topic, name);
    if (value == null) {
      return UNLIMITED;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException ex) {
      return UNLIMITED;
    }
  }
}
