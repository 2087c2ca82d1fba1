package dev.matview.query.local;

import dev.matview.view.MergeableAggregation;
import dev.matview.view.ViewBuilder;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The views the differential test compares: every kind of view (table, tumbling, hopping, session)
 * with every aggregation (count, sum, min, max, latest and a custom one), over one topic of {@link
 * Item}s keyed by their record key.
 */
final class DifferentialViews {

  /** The grace of every windowed view: a record later than this behind stream time is dropped. */
  static final Duration GRACE = Duration.ofMinutes(30);

  private DifferentialViews() {}

  /** A source record's value. */
  record Item(long amount) {}

  /**
   * The custom aggregate: how many records and their total; a record of amount zero removes a
   * table's key or a time window (never a session, whose aggregation merges).
   */
  record Tally(long count, long total) {}

  /** A kind of view and its window. */
  enum Kind {
    TABLE(null),
    TUMBLING(ViewWindow.tumbling(Duration.ofHours(1)).withGrace(GRACE)),
    HOPPING(ViewWindow.hopping(Duration.ofHours(2), Duration.ofMinutes(30)).withGrace(GRACE)),
    SESSION(ViewWindow.session(Duration.ofMinutes(20)).withGrace(GRACE));

    private final @Nullable ViewWindow window;

    Kind(@Nullable ViewWindow window) {
      this.window = window;
    }

    @Nullable ViewWindow window() {
      return this.window;
    }
  }

  /** An aggregation the views fold their records with. */
  enum Fold {
    COUNT,
    SUM,
    MIN,
    MAX,
    LATEST,
    CUSTOM
  }

  /** The name of the view of {@code kind} folded by {@code fold}. */
  static String name(Kind kind, Fold fold) {
    return kind.name().toLowerCase() + "-" + fold.name().toLowerCase();
  }

  /** Every view, by name, as Matview defines it over {@code topic}. */
  static Map<String, ViewDefinition<?, ?, ?>> definitions(String topic) {
    Map<String, ViewDefinition<?, ?, ?>> definitions = new LinkedHashMap<>();
    for (Kind kind : Kind.values()) {
      for (Fold fold : Fold.values()) {
        ViewBuilder<String, Item> items = Views.from(topic, Item.class);
        ViewWindow window = kind.window();
        if (window != null) {
          items = items.windowedBy(window);
        }
        definitions.put(name(kind, fold), definition(items, fold, kind != Kind.SESSION));
      }
    }
    return definitions;
  }

  private static ViewDefinition<String, Item, ?> definition(
      ViewBuilder<String, Item> items, Fold fold, boolean zeroRemoves) {
    return switch (fold) {
      case COUNT -> items.count();
      case SUM -> items.sum(Item::amount);
      case MIN -> items.min(Long.class, Item::amount);
      case MAX -> items.max(Long.class, Item::amount);
      case LATEST -> items.latest();
      case CUSTOM -> items.aggregate(Tally.class, new Tallies(zeroRemoves));
    };
  }

  /** Matview's custom aggregation: a {@link Tally} of each key's records. */
  private record Tallies(boolean zeroRemoves) implements MergeableAggregation<String, Item, Tally> {

    @Override
    public Tally initial() {
      return new Tally(0, 0);
    }

    @Override
    public @Nullable Tally add(String key, Item value, @Nullable Tally aggregate) {
      if (this.zeroRemoves && value.amount() == 0) {
        return null;
      }
      Tally before = (aggregate != null) ? aggregate : initial();
      return new Tally(before.count() + 1, before.total() + value.amount());
    }

    @Override
    public Tally merge(String key, @Nullable Tally older, @Nullable Tally newer) {
      Tally first = (older != null) ? older : initial();
      Tally second = (newer != null) ? newer : initial();
      return new Tally(first.count() + second.count(), first.total() + second.total());
    }
  }
}
