package dev.matview.query.local;

import dev.matview.query.local.DifferentialViews.Fold;
import dev.matview.query.local.DifferentialViews.Kind;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * Where Matview's read paths answer otherwise than the DSL's stores hold: for every view, tables
 * whole, windows over a range wider than the records' (which spans empty segments on both sides)
 * and over a random range within it.
 */
final class ReadDifferences {

  private static final int MAX_SHOWN = 12;

  private ReadDifferences() {}

  /** Where every read path of every view differs from what the DSL's store holds. */
  static List<String> compare(
      ViewRegistry registry,
      MatviewReads reads,
      DslViews dsl,
      TopologyTestDriver driver,
      long start,
      long streamTime,
      Random random) {
    Instant wide = Instant.ofEpochMilli(start).minus(Duration.ofDays(1));
    Instant wideTo = Instant.ofEpochMilli(streamTime).plus(Duration.ofDays(1));
    long span = streamTime - start + 1;
    Instant narrow = Instant.ofEpochMilli(start + random.nextLong(span));
    Instant narrowTo = narrow.plusMillis(random.nextLong(span));
    List<String> failures = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      for (Fold fold : Fold.values()) {
        ResolvedView<String, ?, ?> view = view(registry, DifferentialViews.name(kind, fold));
        compare(failures, reads, dsl, driver, view, kind, wide, wideTo, random);
        if (kind != Kind.TABLE) {
          compare(failures, reads, dsl, driver, view, kind, narrow, narrowTo, random);
        }
      }
    }
    return failures.size() > MAX_SHOWN ? failures.subList(0, MAX_SHOWN) : failures;
  }

  private static void compare(
      List<String> failures,
      MatviewReads reads,
      DslViews dsl,
      TopologyTestDriver driver,
      ResolvedView<String, ?, ?> view,
      Kind kind,
      Instant from,
      Instant to,
      Random random) {
    Map<String, String> expected = dsl.held(driver, view.name(), kind, from, to);
    List<String> keys = DifferentialRecords.keys();
    reads
        .read(view, keys, from, to, random)
        .forEach(
            (path, answered) -> {
              if (!answered.equals(expected)) {
                failures.add(difference(view.name(), path, from, to, expected, answered));
              }
            });
  }

  private static String difference(
      String view,
      String path,
      Instant from,
      Instant to,
      Map<String, String> expected,
      Map<String, String> answered) {
    TreeSet<String> missing = new TreeSet<>();
    TreeSet<String> wrong = new TreeSet<>();
    expected.forEach(
        (entry, value) -> {
          if (!value.equals(answered.get(entry))) {
            missing.add(entry + "=" + value + " (answered " + answered.get(entry) + ")");
          }
        });
    answered.forEach(
        (entry, value) -> {
          if (!expected.containsKey(entry)) {
            wrong.add(entry + "=" + value);
          }
        });
    return view
        + " ["
        + from
        + ", "
        + to
        + "] "
        + path
        + ": "
        + answered.size()
        + " entries for "
        + expected.size()
        + "; not as held: "
        + first(missing)
        + "; not held: "
        + first(wrong);
  }

  private static List<String> first(TreeSet<String> entries) {
    return entries.stream().limit(5).toList();
  }

  @SuppressWarnings("unchecked")
  private static ResolvedView<String, ?, ?> view(ViewRegistry registry, String name) {
    return (ResolvedView<String, ?, ?>) registry.find(name).orElseThrow();
  }
}
