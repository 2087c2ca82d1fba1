package dev.matview.check;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The existing topics whose names are close to a missing one: one edit away (a character added,
 * dropped, changed, or two neighbours swapped), two for names of ten characters or more, or the
 * same name but for case and the separators {@code .}, {@code _} and {@code -}.
 */
final class TopicSuggestions {

  /** Most suggestions made for one missing topic. */
  static final int MAX = 3;

  private static final int LONG_NAME = 10;

  private TopicSuggestions() {}

  /** The closest of {@code existing} to {@code missing}, best first, at most {@link #MAX}. */
  static List<String> closeTo(String missing, Collection<String> existing) {
    int limit = missing.length() >= LONG_NAME ? 2 : 1;
    Map<Integer, List<String>> byDistance = new TreeMap<>();
    for (String topic : existing) {
      int distance = distance(missing, topic, limit);
      if (distance > 0 && distance <= limit) {
        byDistance.computeIfAbsent(distance, (key) -> new ArrayList<>()).add(topic);
      }
    }
    return byDistance.values().stream()
        .findFirst()
        .map((closest) -> closest.stream().sorted(Comparator.naturalOrder()).limit(MAX).toList())
        .orElse(List.of());
  }

  /**
   * How far apart two names are: 1 when they differ only in case and separators, else their edit
   * distance counting a swap of neighbours as one edit, or more than {@code limit} when their
   * lengths alone say they are further apart than that.
   */
  static int distance(String a, String b, int limit) {
    if (a.equals(b)) {
      return 0;
    }
    if (normalized(a).equals(normalized(b))) {
      return 1;
    }
    if (Math.abs(a.length() - b.length()) > limit) {
      return limit + 1;
    }
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  private static String normalized(String name) {
    return name.toLowerCase(Locale.ROOT).replaceAll("[._-]", "");
  }
}
