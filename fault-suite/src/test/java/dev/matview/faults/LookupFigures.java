package dev.matview.faults;

import dev.matview.faults.LookupTally.Mode;
import java.util.List;
import java.util.TreeSet;

/** The lookups' figures in the reliability report, as Markdown: outcomes by mode, positions. */
final class LookupFigures {

  private LookupFigures() {}

  /** The table of the lookups' outcomes, one column per mode. */
  static void outcomes(StringBuilder md, LookupTally tally) {
    md.append("## Lookups during the load\n\n| outcome |");
    for (Mode mode : Mode.values()) {
      md.append(' ').append(mode.description).append(" |");
    }
    md.append("\n|---|").append("---:|".repeat(Mode.values().length)).append('\n');
    TreeSet<String> outcomes = new TreeSet<>();
    for (Mode mode : Mode.values()) {
      outcomes.addAll(tally.outcomes(mode).keySet());
    }
    for (String outcome : outcomes) {
      md.append("| ").append(outcome);
      for (Mode mode : Mode.values()) {
        md.append(" | ").append(tally.outcomes(mode).getOrDefault(outcome, 0L));
      }
      md.append(" |\n");
    }
    md.append("| **all**");
    for (Mode mode : Mode.values()) {
      md.append(" | ").append(total(tally, mode));
    }
    md.append(" |\n| share answered");
    for (Mode mode : Mode.values()) {
      md.append(" | ").append(tally.shareAnswered(mode));
    }
    md.append(" |\n| largest `Matview-Offset-Lag`");
    for (Mode mode : Mode.values()) {
      md.append(" | ").append(tally.largestLag(mode));
    }
    md.append(" |\n\n");
  }

  /** The reads of the client that carries positions, and every one that went back in time. */
  static void positions(StringBuilder md, LookupTally tally, MonotonicReads monotonic) {
    md.append("## Reads that carry positions\n\n");
    md.append(
        "One client looks up the order count of a random customer on each instance in turn, ");
    md.append("one lookup after the other, with `allowStale=true` and the `Matview-Position` of ");
    md.append("the last answer of `").append(PositionedLookups.VIEW).append("` it got. ");
    md.append("A customer's order count only grows, so an answer lower than one this client saw ");
    md.append("before of that customer (or a 404 after a value) went back in time.\n\n");
    md.append("| | |\n|---|---|\n");
    ReliabilityReport.row(md, "lookups", Long.toString(total(tally, Mode.POSITIONED)));
    ReliabilityReport.row(md, "answers checked (200 or 404)", Long.toString(monotonic.checked()));
    ReliabilityReport.row(
        md,
        "refused for their position (`503` `position-not-reached`)",
        Long.toString(
            tally.outcomes(Mode.POSITIONED).getOrDefault(LookupTally.POSITION_NOT_REACHED, 0L)));
    ReliabilityReport.row(md, "went back in time", "**" + monotonic.wentBack() + "**");
    md.append('\n');
    List<String> examples = monotonic.examples();
    if (!examples.isEmpty()) {
      md.append("The first answers that went back in time:\n\n");
      examples.forEach(example -> md.append("- ").append(example).append('\n'));
      md.append('\n');
    }
  }

  /** How many answers to the client that carries positions went back in time, of how many. */
  static String wentBack(LookupTally tally, MonotonicReads monotonic) {
    return monotonic.wentBack()
        + " of "
        + monotonic.checked()
        + " answers to lookups that carried positions ("
        + tally.outcomes(Mode.POSITIONED).getOrDefault(LookupTally.POSITION_NOT_REACHED, 0L)
        + " refused as `position-not-reached`)";
  }

  private static long total(LookupTally tally, Mode mode) {
    return tally.outcomes(mode).values().stream().mapToLong(Long::longValue).sum();
  }
}
