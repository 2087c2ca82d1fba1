package dev.matview.check;

import dev.matview.topology.NearestNames;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The existing topics whose names are one edit away from a missing one (two from a name of ten
 * characters or more), or the same but for case and the separators {@code .}, {@code _} and {@code
 * -}.
 */
final class TopicSuggestions {

  /** Most suggestions made for one missing topic. */
  static final int MAX = NearestNames.MOST;

  private static final int LONG_NAME = 10;

  private TopicSuggestions() {}

  /** The closest of {@code existing} to {@code missing}, best first, at most {@link #MAX}. */
  static List<String> closeTo(String missing, Collection<String> existing) {
    int limit = missing.length() >= LONG_NAME ? 2 : 1;
    Map<Integer, List<String>> byDistance = new TreeMap<>();
    for (String topic : existing) {
      int distance = NearestNames.distance(missing, topic, limit);
      if (distance > 0 && distance <= limit) {
        byDistance.computeIfAbsent(distance, (key) -> new ArrayList<>()).add(topic);
      }
    }
    return byDistance.values().stream()
        .findFirst()
        .map((closest) -> closest.stream().sorted(Comparator.naturalOrder()).limit(MAX).toList())
        .orElse(List.of());
  }
}
