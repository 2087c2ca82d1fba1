package dev.matview.faults;

import com.sun.management.OperatingSystemMXBean;
import dev.matview.faults.LookupTally.Mode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Writes a run's figures as Markdown: {@code docs/reliability.md} for the long form. */
final class ReliabilityReport {

  private static final int SHOWN = 10;

  private ReliabilityReport() {}

  /**
   * A run's figures.
   *
   * @param plan the plan it followed
   * @param command the command that ran it
   * @param started when it started
   * @param ordersAcknowledged orders the broker acknowledged to the driver
   * @param ordersInTopic orders read back from the topic at the end
   * @param faults the fault injector, for its log and recovery times
   * @param tally the lookups' outcomes
   * @param monotonic the check of the reads of the client that carries positions
   * @param changes the check of the change streams followed
   * @param changeMismatches the followed keys whose last value was not their order count
   * @param convergence how long after the load the views matched, or null if they never did
   * @param failure why the run failed, or null
   */
  record Run(
      FaultPlan plan,
      String command,
      Instant started,
      int ordersAcknowledged,
      int ordersInTopic,
      FaultInjector faults,
      LookupTally tally,
      MonotonicReads monotonic,
      ChangeTally changes,
      List<String> changeMismatches,
      Duration convergence,
      String failure) {}

  static void write(Path file, Run run) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, markdown(run));
  }

  static String markdown(Run run) {
    FaultPlan plan = run.plan();
    StringBuilder md = new StringBuilder();
    md.append("# Reliability: the fault suite\n\n");
    md.append("The ").append(plan.form()).append(" form of `fault-suite/` (`FaultSuiteTests`): a ");
    md.append("Kafka broker in its own JVM, ").append(plan.instances());
    md.append(" instances of the sample jar as child JVMs, orders published at a steady rate ");
    md.append("while instances are killed with `kill -9` (SIGKILL) and restarted");
    md.append(plan.brokerRestart() != null ? ", the broker once as well, " : ", ");
    md.append("lookups on every instance all the time, a few keys' change streams followed, and ");
    md.append("at the end every key of every view ");
    md.append("on every instance compared with the orders read back from the topic.\n\n");

    md.append("| | |\n|---|---|\n");
    row(md, "command", "`" + run.command() + "`");
    row(md, "date", run.started().truncatedTo(ChronoUnit.SECONDS).toString());
    row(md, "machine", machine());
    row(
        md,
        "JVM",
        System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.runtime.version")
            + " ("
            + System.getProperty("java.vm.vendor")
            + ")");
    row(
        md,
        "instances",
        plan.instances()
            + " × the sample jar, `-Xmx256m`, `exactly_once_v2`, one standby replica, session"
            + " timeout 6 s, static membership (`matview.instance-id` by default), RocksDB bound"
            + " 64 MB");
    row(
        md,
        "load",
        plan.ordersPerSecond()
            + " orders/s for "
            + plan.load().toSeconds()
            + " s over "
            + plan.customers()
            + " customers; idempotent producer, `acks=all`");
    row(
        md,
        "orders acknowledged / in the topic",
        run.ordersAcknowledged() + " / " + run.ordersInTopic());
    List<Duration> recoveries = run.faults().instanceRecoveries();
    row(md, "instance kills (`kill -9`)", Integer.toString(recoveries.size()));
    row(md, "kill to serving again", spread(recoveries));
    if (plan.brokerRestart() != null) {
      row(
          md,
          "broker kills (`kill -9`)",
          run.faults().brokerRecoveries().size()
              + ", every instance serving again after "
              + spread(run.faults().brokerRecoveries()));
    }
    row(
        md,
        "views exact at the end",
        run.convergence() != null
            ? "yes: all 3 views on all "
                + plan.instances()
                + " instances, by full scans and by key lookups, "
                + FaultInjector.seconds(run.convergence())
                + " after the load stopped"
            : "**no**: " + run.failure());
    if (run.failure() != null && run.convergence() != null) {
      row(md, "failure", run.failure());
    }
    row(
        md,
        "lookups answered 200 or 404, stale reads allowed",
        run.tally().shareAnswered(Mode.STALE) + " of those that reached a live instance");
    row(md, "reads that went back in time", LookupFigures.wentBack(run.tally(), run.monotonic()));
    row(
        md,
        "change events out of order",
        ChangeFigures.summary(run.changes(), run.changeMismatches()));
    md.append('\n');

    LookupFigures.outcomes(md, run.tally());
    LookupFigures.positions(md, run.tally(), run.monotonic());
    ChangeFigures.section(md, run.changes(), run.changeMismatches());

    md.append("## Every 5xx answer, grouped\n\n");
    Map<String, Long> problems = run.tally().problems();
    if (problems.isEmpty()) {
      md.append("None.\n\n");
    } else {
      md.append("Digits in the detail are folded to `#` to group alike answers.\n\n");
      md.append("| count | mode | status | view | title | detail |\n|---:|---|---|---|---|---|\n");
      problems.forEach(
          (group, count) -> {
            String[] parts = group.split(" \\| ", 5);
            md.append("| ").append(count);
            for (String part : parts) {
              md.append(" | ").append(part.replace("|", "\\|").replace("\n", " "));
            }
            md.append(" |\n");
          });
      md.append('\n');
    }

    List<String> settledNotFound = run.tally().settledNotFound();
    if (!settledNotFound.isEmpty()) {
      md.append("## 404s for keys that had orders (`404, key settled`)\n\n");
      md.append(settledNotFound.size()).append(" answers; the first ones:\n\n");
      settledNotFound.stream()
          .limit(SHOWN)
          .forEach(answer -> md.append("- ").append(answer).append('\n'));
      if (settledNotFound.size() > SHOWN) {
        md.append("- … and ").append(settledNotFound.size() - SHOWN).append(" more\n");
      }
      md.append('\n');
    }

    md.append("## Faults, in order\n\n");
    for (String event : run.faults().log()) {
      md.append("- ").append(event).append('\n');
    }
    md.append('\n');

    md.append("## Definitions\n\n");
    md.append(
        """
        - **Lookup**: one `GET` of a key of one of the three views (`/keys/{customer}` on the two \
        table views, `/keys/{customer}/windows` on the windowed one) on one instance, with the \
        customer, the view and the instance chosen at random; half of them carry \
        `allowStale=true`. Each instance gets one every %d ms for the whole load. Beside them, \
        the client that carries positions sends one lookup after the other, %d ms apart.
        - **Outcome**: the HTTP status; `404, key settled` for a 404 although the broker had \
        acknowledged an order of that customer at least %d s before the lookup was sent (an \
        up-to-date replica would have answered 200; a stale read may still answer 404 from a \
        replica that lags less than `maxLag`); `no connection` when the instance refused or \
        dropped the connection (it was being killed or restarting); `timed out` when no answer \
        came within %d s.
        - **Share answered**: lookups answered 200 or 404 (of either kind), out of the lookups \
        that reached a live instance: those that got an HTTP answer or timed out waiting for \
        one. A 404 is an answer: the key had no value in that view (the early orders of a \
        customer may still be on their way through the repartition topic). 503 and 504 are \
        refusals (rebalancing, restoring, standby over its lag bound, owner unreachable, a \
        position not reached within `matview.consistency.max-wait`), a lookup that timed out \
        was not answered, and lookups that reached no instance are left out because no instance \
        could be asked.
        - **Went back in time**: an answer to the client that carries positions lower than a \
        value it had seen before of the same customer's order count, or a 404 after one; sending \
        back the last position promises that this never happens.
        - **Largest lag**: the largest `Matview-Offset-Lag` header of any answer: the answering \
        store partition's changelog lag in offsets (0 for a caught-up active replica).
        - **Exact**: once the load stops, the orders are read back from the `orders` topic \
        (`read_committed`) and must be exactly the ones the broker acknowledged; from them the \
        suite computes each customer's order count, `{orders, total, max}` and order count per \
        one-minute window. Every instance must then answer exactly that, both through full \
        scans (`/views/{view}/keys`, `/views/{view}/windows`, following `nextCursor`: no key \
        missing, none extra) and through a key lookup of every customer on every view, without \
        stale reads.
        - **Event time**: the orders' `ts` runs from 4 s before a minute boundary to 4 s after it \
        over the whole load (each customer has orders in two windows). Any two orders lie at \
        most 8 s apart, under the windowed view's 10 s grace, so no order is ever late whatever \
        order the partitions are processed in after a kill, and the windows' exact contents \
        follow from the orders alone.
        """
            .formatted(
                plan.lookupPeriod().toMillis(),
                plan.lookupPeriod().toMillis(),
                LookupTally.SETTLED.toSeconds(),
                SampleInstance.REQUEST_TIMEOUT.toSeconds()));
    return md.toString();
  }

  static void row(StringBuilder md, String name, String value) {
    md.append("| ").append(name).append(" | ").append(value).append(" |\n");
  }

  private static String spread(List<Duration> durations) {
    if (durations.isEmpty()) {
      return "n/a";
    }
    List<Duration> sorted = new ArrayList<>(durations);
    sorted.sort(null);
    return "min "
        + FaultInjector.seconds(sorted.get(0))
        + ", median "
        + FaultInjector.seconds(sorted.get(sorted.size() / 2))
        + ", max "
        + FaultInjector.seconds(sorted.get(sorted.size() - 1));
  }

  private static String machine() {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    return Runtime.getRuntime().availableProcessors()
        + " cores, "
        + Math.round(os.getTotalMemorySize() / (1024.0 * 1024 * 1024))
        + " GB memory, "
        + System.getProperty("os.name")
        + " "
        + System.getProperty("os.version")
        + " "
        + System.getProperty("os.arch");
  }
}
