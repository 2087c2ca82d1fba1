package dev.matview.topology;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The known names nearest to a name that matched none, for a hint of what was meant: views, topics,
 * properties. Names are compared by edit distance, a swap of neighbours counting as one edit and a
 * difference in case and separators alone as one.
 */
public final class NearestNames {

  /** Most names a hint offers. */
  public static final int MOST = 3;

  /** Longest name compared: a longer one is near no name a view, topic or property may have. */
  private static final int LONGEST = 256;

  private NearestNames() {}

  /**
   * The names among {@code known} within a few edits of {@code wanted} (two, three for names of
   * twelve characters or more) or that contain it, nearest first, at most {@link #MOST}.
   */
  public static List<String> of(String wanted, Collection<String> known) {
    int limit = Math.max(2, Math.min(3, wanted.length() / 4));
    String lower = wanted.toLowerCase(Locale.ROOT);
    return known.stream()
        .filter(name -> !name.equals(wanted))
        .filter(
            name ->
                distance(wanted, name, limit) <= limit
                    || (lower.length() >= 3 && name.toLowerCase(Locale.ROOT).contains(lower)))
        .sorted(byNearness(wanted))
        .limit(MOST)
        .toList();
  }

  /** Every one of {@code names}, nearest to {@code wanted} first. */
  public static List<String> allByNearness(String wanted, Collection<String> names) {
    return names.stream().sorted(byNearness(wanted)).toList();
  }

  /**
   * How far apart two names are: 0 when equal, 1 when they differ only in case and the separators
   * {@code .}, {@code _} and {@code -}, else their edit distance counting a swap of neighbours as
   * one edit, or more than {@code limit} when their lengths alone say they are further apart.
   */
  public static int distance(String a, String b, int limit) {
    if (a.equals(b)) {
      return 0;
    }
    if (normalized(a).equals(normalized(b))) {
      return 1;
    }
    if (Math.abs(a.length() - b.length()) > limit || a.length() > LONGEST || b.length() > LONGEST) {
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

  private static Comparator<String> byNearness(String wanted) {
    return Comparator.comparingInt((String name) -> distance(wanted, name, LONGEST))
        .thenComparing(Comparator.naturalOrder());
  }

  private static String normalized(String name) {
    return name.toLowerCase(Locale.ROOT).replaceAll("[._-]", "");
  }
}
