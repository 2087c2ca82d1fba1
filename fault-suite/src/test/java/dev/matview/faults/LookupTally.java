package dev.matview.faults;

import dev.matview.processes.http.HttpProbe;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What the lookups got: answers by mode and outcome, the largest {@code Matview-Offset-Lag} seen,
 * every 5xx problem detail, grouped, and the share of lookups that reached a live instance and were
 * answered.
 */
final class LookupTally {

  /** How a lookup asked. */
  enum Mode {
    STRICT("strict", "without stale reads"),
    STALE("stale", "with `allowStale=true`"),
    POSITIONED("positions", "with `allowStale=true` and the last `Matview-Position`");

    /** A word for the mode in a table row. */
    final String label;

    final String description;

    Mode(String label, String description) {
      this.label = label;
      this.description = description;
    }
  }

  /** The outcome of a lookup that got no HTTP answer because the connection failed. */
  static final String NO_CONNECTION = "no connection";

  /**
   * The outcome of a lookup answered 404 although the broker had acknowledged an order of its
   * customer at least {@link #SETTLED} before the lookup was sent.
   */
  static final String NOT_FOUND_SETTLED = "404, key settled";

  /**
   * How long after its first acknowledged order a customer's 404 counts as {@link
   * #NOT_FOUND_SETTLED}.
   */
  static final Duration SETTLED = Duration.ofSeconds(30);

  /**
   * The outcome of a lookup answered 503 with the problem type {@code position-not-reached}: the
   * replicas that could answer had not applied the position it sent back within the server's wait.
   */
  static final String POSITION_NOT_REACHED = "503, position not reached";

  /**
   * The outcome of a lookup that got no HTTP answer within {@link SampleInstance#REQUEST_TIMEOUT}.
   */
  static final String TIMED_OUT = "timed out";

  private final Map<Mode, Map<String, LongAdder>> outcomes = new EnumMap<>(Mode.class);

  private final Map<Mode, AtomicLong> largestLag = new EnumMap<>(Mode.class);

  private final Map<String, LongAdder> problems = new ConcurrentHashMap<>();

  private final Map<String, String> problemExamples = new ConcurrentHashMap<>();

  private final List<String> settledNotFound = new CopyOnWriteArrayList<>();

  LookupTally() {
    for (Mode mode : Mode.values()) {
      this.outcomes.put(mode, new ConcurrentHashMap<>());
      this.largestLag.put(mode, new AtomicLong());
    }
  }

  /**
   * Records an HTTP answer to a lookup sent at {@code sent} of a customer whose first order the
   * broker acknowledged at {@code firstOrder} (null if none was yet).
   */
  void answered(
      Mode mode,
      String view,
      HttpProbe.Answer response,
      Instant sent,
      @Nullable Instant firstOrder) {
    boolean settled = firstOrder != null && !firstOrder.plus(SETTLED).isAfter(sent);
    if (response.status() == 404 && settled) {
      this.settledNotFound.add(
          String.format(
              Locale.ROOT,
              "%s %s (%s): %.1f s after the customer's first order; Matview-Served-By %s,"
                  + " Matview-Replica %s, Matview-Offset-Lag %s; body %s",
              mode.label,
              response.uri().getPath(),
              response.uri().getAuthority(),
              Duration.between(firstOrder, sent).toMillis() / 1000.0,
              header(response, "Matview-Served-By"),
              header(response, "Matview-Replica"),
              header(response, "Matview-Offset-Lag"),
              response.body().replace('\n', ' ')));
    }
    count(mode, outcome(response, settled));
    String lag = response.headers().getFirst("Matview-Offset-Lag");
    if (lag != null) {
      this.largestLag.get(mode).accumulateAndGet(Long.parseLong(lag), Math::max);
    }
    if (response.status() >= 500) {
      String group = mode.label + " | " + problemGroup(response, view);
      this.problems.computeIfAbsent(group, key -> new LongAdder()).increment();
      this.problemExamples.putIfAbsent(group, response.body());
    }
  }

  /** The outcome of a lookup whose request failed with {@code failure}. */
  static String unansweredOutcome(UncheckedIOException failure) {
    return HttpProbe.timedOut(failure) ? TIMED_OUT : NO_CONNECTION;
  }

  /** Records a lookup that got no HTTP answer. */
  void unanswered(Mode mode, String outcome) {
    count(mode, outcome);
  }

  /** Lookups of {@code mode} by outcome: an HTTP status or one of the failures above. */
  Map<String, Long> outcomes(Mode mode) {
    Map<String, Long> counts = new TreeMap<>();
    this.outcomes.get(mode).forEach((outcome, count) -> counts.put(outcome, count.sum()));
    return counts;
  }

  /**
   * Lookups of {@code mode} answered 200 or 404 (of either kind), out of those that reached a live
   * instance: that got an HTTP answer or timed out waiting for one.
   */
  Share shareAnswered(Mode mode) {
    long reached = 0;
    long answered = 0;
    for (Map.Entry<String, Long> outcome : outcomes(mode).entrySet()) {
      String name = outcome.getKey();
      if (name.equals(NO_CONNECTION)) {
        continue;
      }
      reached += outcome.getValue();
      if (name.equals("200") || name.equals("404") || name.equals(NOT_FOUND_SETTLED)) {
        answered += outcome.getValue();
      }
    }
    return new Share(answered, reached);
  }

  /** The largest {@code Matview-Offset-Lag} an answer of {@code mode} carried. */
  long largestLag(Mode mode) {
    return this.largestLag.get(mode).get();
  }

  /** 5xx answers grouped by mode, status, view, title and detail (digits folded to {@code #}). */
  Map<String, Long> problems() {
    Map<String, Long> counts = new TreeMap<>();
    this.problems.forEach((group, count) -> counts.put(group, count.sum()));
    return counts;
  }

  /** Each {@link #NOT_FOUND_SETTLED} answer: what was asked, of whom, and who answered. */
  List<String> settledNotFound() {
    return List.copyOf(this.settledNotFound);
  }

  /** The first full body seen of a problem group. */
  String example(String group) {
    return this.problemExamples.get(group);
  }

  private static String header(HttpProbe.Answer response, String name) {
    String value = response.headers().getFirst(name);
    return (value != null) ? value : "(none)";
  }

  private static String outcome(HttpProbe.Answer response, boolean settled) {
    if (response.status() == 404 && settled) {
      return NOT_FOUND_SETTLED;
    }
    if (response.status() == 503
        && response.json().path("type").asString("").endsWith("/position-not-reached")) {
      return POSITION_NOT_REACHED;
    }
    return Integer.toString(response.status());
  }

  private void count(Mode mode, String outcome) {
    this.outcomes.get(mode).computeIfAbsent(outcome, key -> new LongAdder()).increment();
  }

  private static String problemGroup(HttpProbe.Answer response, String view) {
    String title = "";
    String detail = response.body();
    try {
      JsonNode problem = ViewReader.JSON.readTree(response.body());
      title = problem.path("title").asString("");
      detail = problem.path("detail").asString("");
    } catch (RuntimeException ex) {
      // Not JSON: the body itself is the detail.
    }
    String folded = detail.replaceAll("[0-9]+", "#");
    if (folded.length() > 300) {
      folded = folded.substring(0, 300) + "…";
    }
    return response.status() + " | " + view + " | " + title + " | " + folded;
  }

  /**
   * A share of lookups.
   *
   * @param answered the lookups answered
   * @param of the lookups counted
   */
  record Share(long answered, long of) {

    /**
     * The share as a percentage with its counts, or {@code n/a} when none were counted; rounded
     * down to hundredths, so that a share just under a goal such as 99.5 % never reads as meeting
     * it.
     */
    @Override
    public String toString() {
      if (this.of == 0) {
        return "n/a";
      }
      long hundredths = this.answered * 10_000 / this.of;
      return String.format(
          Locale.ROOT,
          "%d.%02d %% (%d of %d)",
          hundredths / 100,
          hundredths % 100,
          this.answered,
          this.of);
    }
  }
}
