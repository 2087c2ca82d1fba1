package dev.matview.faults;

import dev.matview.faults.LookupTally.Mode;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Looks keys up on every instance all the time: each instance gets a lookup every few milliseconds,
 * on a random view and customer, half of them with {@code allowStale=true}; beside them, a client
 * that carries positions ({@link PositionedLookups}) looks up one key after the other.
 */
final class LookupLoad implements AutoCloseable {

  private final List<SampleInstance> instances;

  private final List<String> customers;

  private final String windowRange;

  private final LookupTally tally;

  private final Function<String, @Nullable Instant> firstOrder;

  private final ScheduledExecutorService scheduler;

  private final PositionedLookups positioned;

  LookupLoad(
      List<SampleInstance> instances,
      List<String> customers,
      EventClock eventClock,
      Function<String, @Nullable Instant> firstOrder,
      LookupTally tally) {
    this.firstOrder = firstOrder;
    this.instances = List.copyOf(instances);
    this.customers = List.copyOf(customers);
    this.windowRange =
        "from="
            + URLEncoder.encode(eventClock.earliestWindow().toString(), StandardCharsets.UTF_8)
            + "&to="
            + URLEncoder.encode(eventClock.latestWindow().toString(), StandardCharsets.UTF_8);
    this.tally = tally;
    this.scheduler = Executors.newScheduledThreadPool(instances.size());
    this.positioned = new PositionedLookups(instances, customers, firstOrder, tally);
  }

  /**
   * Starts looking up, one lookup per instance every {@code periodMillis}, and the client that
   * carries positions one lookup after the other, {@code periodMillis} apart.
   */
  void start(long periodMillis) {
    for (SampleInstance instance : this.instances) {
      this.scheduler.scheduleAtFixedRate(
          () -> lookUp(instance), 0, periodMillis, TimeUnit.MILLISECONDS);
    }
    this.positioned.start(periodMillis);
  }

  /** Stops looking up and waits for lookups in flight. */
  void stop() throws InterruptedException {
    this.scheduler.shutdown();
    this.positioned.stop();
    this.scheduler.awaitTermination(1, TimeUnit.MINUTES);
  }

  /** The check of the values that the client which carries positions read. */
  MonotonicReads monotonicReads() {
    return this.positioned.reads();
  }

  @Override
  public void close() {
    this.scheduler.shutdownNow();
    this.positioned.close();
  }

  private void lookUp(SampleInstance instance) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    Mode mode = random.nextBoolean() ? Mode.STALE : Mode.STRICT;
    String customer = this.customers.get(random.nextInt(this.customers.size()));
    String stale = (mode == Mode.STALE) ? "allowStale=true" : "";
    String view;
    String path;
    switch (random.nextInt(3)) {
      case 0 -> {
        view = ViewContents.ORDERS_PER_CUSTOMER;
        path = "/views/" + view + "/keys/" + customer + (stale.isEmpty() ? "" : "?" + stale);
      }
      case 1 -> {
        view = ViewContents.REVENUE_PER_CUSTOMER;
        path = "/views/" + view + "/keys/" + customer + (stale.isEmpty() ? "" : "?" + stale);
      }
      default -> {
        view = ViewContents.ORDERS_PER_MINUTE;
        path =
            "/views/"
                + view
                + "/keys/"
                + customer
                + "/windows?"
                + this.windowRange
                + (stale.isEmpty() ? "" : "&" + stale);
      }
    }
    Instant sent = Instant.now();
    Instant firstOrderOfCustomer = this.firstOrder.apply(customer);
    try {
      this.tally.answered(mode, view, instance.http().get(path), sent, firstOrderOfCustomer);
    } catch (UncheckedIOException ex) {
      this.tally.unanswered(mode, LookupTally.unansweredOutcome(ex));
    }
  }
}
