package dev.matview.faults;

import java.util.List;
import java.util.Map;

/** The change streams' figures in the reliability report, as Markdown. */
final class ChangeFigures {

  private ChangeFigures() {}

  /** The summary row: values out of order, of how many events. */
  static String summary(ChangeTally changes, List<String> mismatches) {
    return changes.outOfOrder()
        + " of "
        + changes.events()
        + " events of "
        + changes.keys().size()
        + " keys' change streams, "
        + (mismatches.isEmpty() ? "each ending at its order count" : "**" + mismatches + "**");
  }

  /** The section on the change streams followed. */
  static void section(StringBuilder md, ChangeTally changes, List<String> mismatches) {
    md.append("## Change streams\n\n");
    md.append("A client follows the change streams (`/views/")
        .append(ChangeFollower.VIEW)
        .append("/keys/{customer}/changes`) of ")
        .append(String.join(", ", changes.keys()))
        .append(", one connection per key. When a stream ends (a `reconnect` or `dropped` ");
    md.append("event, the connection lost) or cannot be opened, it opens it again on the next ");
    md.append("instance with the id of the last event it got as `Last-Event-ID`. A count grows ");
    md.append("by one per order, so each value must be one more than the value before it: a ");
    md.append("higher one is a gap, an equal one a duplicate, a lower one went back, and an ");
    md.append("event must be of the key followed. Only the ");
    md.append("first value after a `skipped` event (the instance no longer held the updates ");
    md.append("after that id) or after a start without an id is not compared. Once the views ");
    md.append("are exact, each key's last value must be its number of orders in the topic.\n\n");
    md.append("| | |\n|---|---|\n");
    ReliabilityReport.row(md, "events received", Long.toString(changes.events()));
    ReliabilityReport.row(md, "reconnects", Long.toString(changes.reconnects()));
    changes
        .endings()
        .forEach((why, count) -> ReliabilityReport.row(md, "- after " + why, count.toString()));
    ReliabilityReport.row(md, "attempts to open a stream", outcomes(changes.opens()));
    ReliabilityReport.row(md, "starts without an id", Long.toString(changes.freshStarts()));
    ReliabilityReport.row(md, "skipped (`skipped` events)", Long.toString(changes.skipped()));
    ReliabilityReport.row(md, "gaps", "**" + changes.gaps() + "**");
    ReliabilityReport.row(md, "duplicates", "**" + changes.duplicates() + "**");
    ReliabilityReport.row(md, "went back", "**" + changes.wentBack() + "**");
    ReliabilityReport.row(md, "events of another key", "**" + changes.otherKeys() + "**");
    ReliabilityReport.row(
        md,
        "last value equal to the orders published",
        mismatches.isEmpty() ? "yes, every key" : "**no**: " + String.join("; ", mismatches));
    md.append('\n');
    List<String> examples = changes.examples();
    if (!examples.isEmpty()) {
      md.append("The first values out of order:\n\n");
      examples.forEach(example -> md.append("- ").append(example).append('\n'));
      md.append('\n');
    }
  }

  private static String outcomes(Map<String, Long> opens) {
    StringBuilder text = new StringBuilder();
    opens.forEach(
        (outcome, count) ->
            text.append(text.isEmpty() ? "" : ", ").append(outcome).append(": ").append(count));
    return text.isEmpty() ? "none" : text.toString();
  }
}
