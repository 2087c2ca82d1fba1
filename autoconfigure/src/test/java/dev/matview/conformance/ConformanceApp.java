package dev.matview.conformance;

import dev.matview.view.Aggregation;
import dev.matview.view.MaterializedView;
import dev.matview.view.MergeableAggregation;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the conformance matrix, as a new user would write it: one view of every kind
 * the README promises. Each source topic has its own record key type, and every record's key is the
 * value's field of that type ({@link Event#name()}, {@link Event#number()}, {@link Event#id()} or
 * {@link Event#pair()}).
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
class ConformanceApp {

  static final String BY_NAME = "events-by-name";

  static final String BY_NUMBER = "events-by-number";

  static final String BY_ID = "events-by-id";

  static final String BY_PAIR = "events-by-pair";

  static final Duration MINUTE = Duration.ofMinutes(1);

  static final Duration TUMBLING_GRACE = Duration.ofSeconds(20);

  static final Duration HOPPING_SIZE = Duration.ofMinutes(2);

  static final Duration HOPPING_GRACE = Duration.ofSeconds(20);

  static final Duration SESSION_GAP = Duration.ofMinutes(2);

  static final Duration SESSION_GRACE = Duration.ofSeconds(30);

  @MaterializedView("count-by-name")
  ViewDefinition<String, Event, Long> countByName() {
    return Views.from(BY_NAME, Event.class).count();
  }

  @MaterializedView("sum-by-number")
  ViewDefinition<Long, Event, Long> sumByNumber() {
    return Views.from(BY_NUMBER, Long.class, Event.class).sum(Event::quantity);
  }

  @MaterializedView("decimal-by-id")
  ViewDefinition<UUID, Event, BigDecimal> decimalById() {
    return Views.from(BY_ID, UUID.class, Event.class).sumDecimal(Event::amount);
  }

  @MaterializedView("min-by-pair")
  ViewDefinition<Pair, Event, BigDecimal> minByPair() {
    return Views.from(BY_PAIR, Pair.class, Event.class).min(BigDecimal.class, Event::amount);
  }

  @MaterializedView("max-per-name")
  ViewDefinition<String, Event, Long> maxPerName() {
    return Views.from(BY_NUMBER, Long.class, Event.class)
        .groupBy(String.class, Event::name)
        .max(Long.class, Event::quantity);
  }

  @MaterializedView("latest-per-number")
  ViewDefinition<Long, Event, Event> latestPerNumber() {
    return Views.from(BY_ID, UUID.class, Event.class).groupBy(Long.class, Event::number).latest();
  }

  @MaterializedView("tally-per-id")
  ViewDefinition<UUID, Event, Tally> tallyPerId() {
    return Views.from(BY_PAIR, Pair.class, Event.class)
        .groupBy(UUID.class, Event::id)
        .aggregate(Tally.class, new TallyAggregation());
  }

  @MaterializedView("tumbling-per-pair")
  ViewDefinition<Pair, Event, Long> tumblingPerPair() {
    return Views.from(BY_NAME, Event.class)
        .eventTime(Event::at)
        .groupBy(Pair.class, Event::pair)
        .windowedBy(ViewWindow.tumbling(MINUTE).withGrace(TUMBLING_GRACE))
        .count();
  }

  /** Takes event time from the record timestamp, which the publisher sets to {@link Event#at()}. */
  @MaterializedView("hopping-by-number")
  ViewDefinition<Long, Event, Long> hoppingByNumber() {
    return Views.from(BY_NUMBER, Long.class, Event.class)
        .windowedBy(ViewWindow.hopping(HOPPING_SIZE, MINUTE).withGrace(HOPPING_GRACE))
        .sum(Event::quantity);
  }

  @MaterializedView("sessions-by-id")
  ViewDefinition<UUID, Event, Visits> sessionsById() {
    return Views.from(BY_ID, UUID.class, Event.class)
        .eventTime(Event::at)
        .windowedBy(ViewWindow.session(SESSION_GAP).withGrace(SESSION_GRACE))
        .aggregate(Visits.class, new VisitsAggregation());
  }

  /** A composite key; its components are in alphabetical order, as JSON writes them. */
  record Pair(String region, String shop) {}

  record Event(
      String name, long number, UUID id, Pair pair, long quantity, BigDecimal amount, Instant at) {}

  /** Records, their total quantity and the quantity of the latest one. */
  record Tally(long records, long quantity, long lastQuantity) {}

  /** Records of a session, their total amount and quantity. */
  record Visits(long records, BigDecimal amount, long quantity) {}

  /** Starts from no aggregate at all: {@code add} receives null for a key's first record. */
  static final class TallyAggregation implements Aggregation<UUID, Event, Tally> {

    @Override
    public @Nullable Tally initial() {
      return null;
    }

    @Override
    public Tally add(UUID key, Event event, @Nullable Tally tally) {
      return tally == null
          ? new Tally(1, event.quantity(), event.quantity())
          : new Tally(tally.records() + 1, tally.quantity() + event.quantity(), event.quantity());
    }
  }

  static final class VisitsAggregation implements MergeableAggregation<UUID, Event, Visits> {

    @Override
    public Visits initial() {
      return new Visits(0, BigDecimal.valueOf(0, 2), 0);
    }

    @Override
    public Visits add(UUID key, Event event, @Nullable Visits visits) {
      Visits base = visits != null ? visits : initial();
      return new Visits(
          base.records() + 1,
          base.amount().add(event.amount()),
          base.quantity() + event.quantity());
    }

    @Override
    public Visits merge(UUID key, @Nullable Visits older, @Nullable Visits newer) {
      Visits first = older != null ? older : initial();
      Visits second = newer != null ? newer : initial();
      return new Visits(
          first.records() + second.records(),
          first.amount().add(second.amount()),
          first.quantity() + second.quantity());
    }
  }
}
