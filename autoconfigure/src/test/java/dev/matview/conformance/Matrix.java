package dev.matview.conformance;

import static dev.matview.conformance.Matrix.Endpoint.ABSENT_KEY;
import static dev.matview.conformance.Matrix.Endpoint.BAD_KEY;
import static dev.matview.conformance.Matrix.Endpoint.BATCH;
import static dev.matview.conformance.Matrix.Endpoint.KEY;
import static dev.matview.conformance.Matrix.Endpoint.KEY_BOUNDS;
import static dev.matview.conformance.Matrix.Endpoint.KEY_SCAN;
import static dev.matview.conformance.Matrix.Endpoint.KEY_WINDOWS;
import static dev.matview.conformance.Matrix.Endpoint.LIST;
import static dev.matview.conformance.Matrix.Endpoint.REVERSED_RANGE;
import static dev.matview.conformance.Matrix.Endpoint.STREAMED_SCAN;
import static dev.matview.conformance.Matrix.Endpoint.WINDOW_SCAN;
import static dev.matview.conformance.Matrix.Outcome.ANSWERS;
import static dev.matview.conformance.Matrix.Outcome.BAD_REQUEST;
import static dev.matview.conformance.Matrix.Outcome.NOT_FOUND;
import static dev.matview.conformance.Matrix.Outcome.URI_TOO_LONG;

import dev.matview.conformance.ConformanceApp.Event;
import dev.matview.conformance.ConformanceApp.Tally;
import dev.matview.conformance.ConformanceApp.Visits;
import dev.matview.conformance.ViewKind.Fold;
import dev.matview.conformance.ViewKind.WindowSpec;
import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The conformance matrix as data: one row per kind of view, one column per endpoint, and in each
 * cell what the README says the endpoint answers for that kind. Adding a kind of view means adding
 * its row (and its view to {@link ConformanceApp}); adding an endpoint means adding its column to
 * {@link Endpoint} and a cell to every row. A missing cell fails the matrix.
 */
final class Matrix {

  private Matrix() {}

  /** The columns: what is asked of a view. */
  enum Endpoint {
    /** {@code GET /views} lists the view with its kind, key type and window. */
    LIST,
    /** {@code GET /views/{v}/keys/{key}} for every key. */
    KEY,
    /** {@code GET /views/{v}/keys/{key}/windows?from=&to=} for every key, whole and in part. */
    KEY_WINDOWS,
    /** {@code GET /views/{v}/keys?limit=&cursor=}, following cursors to the end. */
    KEY_SCAN,
    /** {@code GET /views/{v}/keys?from=&to=} with key bounds, following cursors to the end. */
    KEY_BOUNDS,
    /** {@code GET /views/{v}/windows?from=&to=&limit=&cursor=}, following cursors to the end. */
    WINDOW_SCAN,
    /**
     * {@code GET /views/{v}/keys} (tables) or {@code /windows} (windowed views) with {@code Accept:
     * application/x-ndjson}: the whole range in one response, then resumed after an item in its
     * middle ({@code afterKey}, {@code afterStart}).
     */
    STREAMED_SCAN,
    /**
     * {@code POST /views/{v}/batch}: found and not found, in the order asked; a windowed view's
     * with {@code ?from=&to=}, each key's windows.
     */
    BATCH,
    /** A key that has no value (tables) or no windows (windowed views). */
    ABSENT_KEY,
    /** A key that cannot be read as the view's key type, or is too long. */
    BAD_KEY,
    /** {@code from} after {@code to}: key bounds for tables, instants for windowed views. */
    REVERSED_RANGE
  }

  /** What a cell expects. */
  enum Outcome {
    /** 200 with what the expected-value model says. */
    ANSWERS,
    /** 404 problem detail. */
    NOT_FOUND,
    /** 400 problem detail. */
    BAD_REQUEST,
    /** 414 problem detail. */
    URI_TOO_LONG
  }

  /** One row: a kind of view and its cells. */
  record Row(ViewKind view, Map<Endpoint, Outcome> cells) {

    static Row of(ViewKind view) {
      return new Row(view, new EnumMap<>(Endpoint.class));
    }

    Row cell(Endpoint endpoint, Outcome outcome) {
      this.cells.put(endpoint, outcome);
      return this;
    }

    @Nullable Outcome outcome(Endpoint endpoint) {
      return this.cells.get(endpoint);
    }
  }

  /** A view no instance has: every endpoint answers 404 for it. */
  static final ViewKind UNKNOWN =
      new ViewKind(
          "no-such-view", ConformanceApp.BY_NAME, KeyKind.STRING, false, WindowSpec.NONE, count());

  static final List<Row> ROWS =
      List.of(
          Row.of(view("count-by-name", ConformanceApp.BY_NAME, KeyKind.STRING, false, count()))
              .cell(LIST, ANSWERS)
              .cell(KEY, ANSWERS)
              .cell(KEY_WINDOWS, BAD_REQUEST)
              .cell(KEY_SCAN, ANSWERS)
              .cell(KEY_BOUNDS, ANSWERS)
              .cell(WINDOW_SCAN, BAD_REQUEST)
              .cell(STREAMED_SCAN, ANSWERS)
              .cell(BATCH, ANSWERS)
              .cell(ABSENT_KEY, NOT_FOUND)
              .cell(BAD_KEY, URI_TOO_LONG)
              .cell(REVERSED_RANGE, BAD_REQUEST),
          Row.of(view("sum-by-number", ConformanceApp.BY_NUMBER, KeyKind.LONG, false, sum()))
              .cell(LIST, ANSWERS)
              .cell(KEY, ANSWERS)
              .cell(KEY_WINDOWS, BAD_REQUEST)
              .cell(KEY_SCAN, ANSWERS)
              .cell(KEY_BOUNDS, ANSWERS)
              .cell(WINDOW_SCAN, BAD_REQUEST)
              .cell(STREAMED_SCAN, ANSWERS)
              .cell(BATCH, ANSWERS)
              .cell(ABSENT_KEY, NOT_FOUND)
              .cell(BAD_KEY, BAD_REQUEST)
              .cell(REVERSED_RANGE, BAD_REQUEST),
          Row.of(view("decimal-by-id", ConformanceApp.BY_ID, KeyKind.UUID, false, sumDecimal()))
              .cell(LIST, ANSWERS)
              .cell(KEY, ANSWERS)
              .cell(KEY_WINDOWS, BAD_REQUEST)
              .cell(KEY_SCAN, ANSWERS)
              .cell(KEY_BOUNDS, ANSWERS)
              .cell(WINDOW_SCAN, BAD_REQUEST)
              .cell(STREAMED_SCAN, ANSWERS)
              .cell(BATCH, ANSWERS)
              .cell(ABSENT_KEY, NOT_FOUND)
              .cell(BAD_KEY, BAD_REQUEST)
              .cell(REVERSED_RANGE, BAD_REQUEST),
          Row.of(view("min-by-pair", ConformanceApp.BY_PAIR, KeyKind.PAIR, false, minAmount()))
              .cell(LIST, ANSWERS)
              .cell(KEY, ANSWERS)
              .cell(KEY_WINDOWS, BAD_REQUEST)
              .cell(KEY_SCAN, ANSWERS)
              .cell(KEY_BOUNDS, ANSWERS)
              .cell(WINDOW_SCAN, BAD_REQUEST)
              .cell(STREAMED_SCAN, ANSWERS)
              .cell(BATCH, ANSWERS)
              .cell(ABSENT_KEY, NOT_FOUND)
              .cell(BAD_KEY, BAD_REQUEST)
              .cell(REVERSED_RANGE, BAD_REQUEST),
          Row.of(
                  view(
                      "max-per-name",
                      ConformanceApp.BY_NUMBER,
                      KeyKind.STRING,
                      true,
                      maxQuantity()))
              .cell(LIST, ANSWERS)
              .cell(KEY, ANSWERS)
              .cell(KEY_WINDOWS, BAD_REQUEST)
              .cell(KEY_SCAN, ANSWERS)
              .cell(KEY_BOUNDS, ANSWERS)
              .cell(WINDOW_SCAN, BAD_REQUEST)
              .cell(STREAMED_SCAN, ANSWERS)
              .cell(BATCH, ANSWERS)
              .cell(ABSENT_KEY, NOT_FOUND)
              .cell(BAD_KEY, URI_TOO_LONG)
              .cell(REVERSED_RANGE, BAD_REQUEST),
          Row.of(view("latest-per-number", ConformanceApp.BY_ID, KeyKind.LONG, true, latest()))
              .cell(LIST, ANSWERS)
              .cell(KEY, ANSWERS)
              .cell(KEY_WINDOWS, BAD_REQUEST)
              .cell(KEY_SCAN, ANSWERS)
              .cell(KEY_BOUNDS, ANSWERS)
              .cell(WINDOW_SCAN, BAD_REQUEST)
              .cell(STREAMED_SCAN, ANSWERS)
              .cell(BATCH, ANSWERS)
              .cell(ABSENT_KEY, NOT_FOUND)
              .cell(BAD_KEY, BAD_REQUEST)
              .cell(REVERSED_RANGE, BAD_REQUEST),
          Row.of(view("tally-per-id", ConformanceApp.BY_PAIR, KeyKind.UUID, true, tally()))
              .cell(LIST, ANSWERS)
              .cell(KEY, ANSWERS)
              .cell(KEY_WINDOWS, BAD_REQUEST)
              .cell(KEY_SCAN, ANSWERS)
              .cell(KEY_BOUNDS, ANSWERS)
              .cell(WINDOW_SCAN, BAD_REQUEST)
              .cell(STREAMED_SCAN, ANSWERS)
              .cell(BATCH, ANSWERS)
              .cell(ABSENT_KEY, NOT_FOUND)
              .cell(BAD_KEY, BAD_REQUEST)
              .cell(REVERSED_RANGE, BAD_REQUEST),
          Row.of(
                  new ViewKind(
                      "tumbling-per-pair",
                      ConformanceApp.BY_NAME,
                      KeyKind.PAIR,
                      true,
                      WindowSpec.tumbling(ConformanceApp.MINUTE, ConformanceApp.TUMBLING_GRACE),
                      count()))
              .cell(LIST, ANSWERS)
              .cell(KEY, BAD_REQUEST)
              .cell(KEY_WINDOWS, ANSWERS)
              .cell(KEY_SCAN, BAD_REQUEST)
              .cell(KEY_BOUNDS, BAD_REQUEST)
              .cell(WINDOW_SCAN, ANSWERS)
              .cell(STREAMED_SCAN, ANSWERS)
              .cell(BATCH, ANSWERS)
              .cell(ABSENT_KEY, ANSWERS)
              .cell(BAD_KEY, BAD_REQUEST)
              .cell(REVERSED_RANGE, BAD_REQUEST),
          Row.of(
                  new ViewKind(
                      "hopping-by-number",
                      ConformanceApp.BY_NUMBER,
                      KeyKind.LONG,
                      false,
                      WindowSpec.hopping(
                          ConformanceApp.HOPPING_SIZE,
                          ConformanceApp.MINUTE,
                          ConformanceApp.HOPPING_GRACE),
                      sum()))
              .cell(LIST, ANSWERS)
              .cell(KEY, BAD_REQUEST)
              .cell(KEY_WINDOWS, ANSWERS)
              .cell(KEY_SCAN, BAD_REQUEST)
              .cell(KEY_BOUNDS, BAD_REQUEST)
              .cell(WINDOW_SCAN, ANSWERS)
              .cell(STREAMED_SCAN, ANSWERS)
              .cell(BATCH, ANSWERS)
              .cell(ABSENT_KEY, ANSWERS)
              .cell(BAD_KEY, BAD_REQUEST)
              .cell(REVERSED_RANGE, BAD_REQUEST),
          Row.of(
                  new ViewKind(
                      "sessions-by-id",
                      ConformanceApp.BY_ID,
                      KeyKind.UUID,
                      false,
                      WindowSpec.session(ConformanceApp.SESSION_GAP, ConformanceApp.SESSION_GRACE),
                      visits()))
              .cell(LIST, ANSWERS)
              .cell(KEY, BAD_REQUEST)
              .cell(KEY_WINDOWS, ANSWERS)
              .cell(KEY_SCAN, BAD_REQUEST)
              .cell(KEY_BOUNDS, BAD_REQUEST)
              .cell(WINDOW_SCAN, ANSWERS)
              .cell(STREAMED_SCAN, ANSWERS)
              .cell(BATCH, ANSWERS)
              .cell(ABSENT_KEY, ANSWERS)
              .cell(BAD_KEY, BAD_REQUEST)
              .cell(REVERSED_RANGE, BAD_REQUEST),
          Row.of(UNKNOWN)
              .cell(LIST, NOT_FOUND)
              .cell(KEY, NOT_FOUND)
              .cell(KEY_WINDOWS, NOT_FOUND)
              .cell(KEY_SCAN, NOT_FOUND)
              .cell(KEY_BOUNDS, NOT_FOUND)
              .cell(WINDOW_SCAN, NOT_FOUND)
              .cell(STREAMED_SCAN, NOT_FOUND)
              .cell(BATCH, NOT_FOUND)
              .cell(ABSENT_KEY, NOT_FOUND)
              .cell(BAD_KEY, NOT_FOUND)
              .cell(REVERSED_RANGE, NOT_FOUND));

  private static ViewKind view(
      String name, String topic, KeyKind keyKind, boolean grouped, Fold fold) {
    return new ViewKind(name, topic, keyKind, grouped, WindowSpec.NONE, fold);
  }

  private static Fold count() {
    return sessionsOrTables(0L, (count, event) -> (Long) count + 1, (a, b) -> (Long) a + (Long) b);
  }

  private static Fold sum() {
    return sessionsOrTables(
        0L, (sum, event) -> (Long) sum + event.quantity(), (a, b) -> (Long) a + (Long) b);
  }

  private static Fold sumDecimal() {
    return sessionsOrTables(
        BigDecimal.ZERO,
        (sum, event) -> ((BigDecimal) sum).add(event.amount()),
        (a, b) -> ((BigDecimal) a).add((BigDecimal) b));
  }

  private static Fold minAmount() {
    return fromNothing(
        (min, event) ->
            min == null || event.amount().compareTo((BigDecimal) min) < 0 ? event.amount() : min);
  }

  private static Fold maxQuantity() {
    return fromNothing(
        (max, event) -> max == null || event.quantity() > (Long) max ? event.quantity() : max);
  }

  private static Fold latest() {
    return fromNothing((latest, event) -> event);
  }

  private static Fold tally() {
    return fromNothing(
        (tally, event) ->
            tally == null
                ? new Tally(1, event.quantity(), event.quantity())
                : new Tally(
                    ((Tally) tally).records() + 1,
                    ((Tally) tally).quantity() + event.quantity(),
                    event.quantity()));
  }

  private static Fold visits() {
    return sessionsOrTables(
        new Visits(0, BigDecimal.valueOf(0, 2), 0),
        (visits, event) ->
            new Visits(
                ((Visits) visits).records() + 1,
                ((Visits) visits).amount().add(event.amount()),
                ((Visits) visits).quantity() + event.quantity()),
        (a, b) ->
            new Visits(
                ((Visits) a).records() + ((Visits) b).records(),
                ((Visits) a).amount().add(((Visits) b).amount()),
                ((Visits) a).quantity() + ((Visits) b).quantity()));
  }

  private interface Add {
    Object apply(@Nullable Object aggregate, Event event);
  }

  private interface Merge {
    Object apply(Object older, Object newer);
  }

  private static Fold fromNothing(Add add) {
    return new Fold() {
      @Override
      public @Nullable Object initial() {
        return null;
      }

      @Override
      public Object add(@Nullable Object aggregate, Event event) {
        return add.apply(aggregate, event);
      }
    };
  }

  private static Fold sessionsOrTables(Object initial, Add add, Merge merge) {
    return new Fold() {
      @Override
      public Object initial() {
        return initial;
      }

      @Override
      public Object add(@Nullable Object aggregate, Event event) {
        return add.apply(aggregate != null ? aggregate : initial, event);
      }

      @Override
      public Object merge(@Nullable Object older, Object newer) {
        return merge.apply(older != null ? older : initial, newer);
      }
    };
  }
}
