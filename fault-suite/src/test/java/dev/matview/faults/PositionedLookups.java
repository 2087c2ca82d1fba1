package dev.matview.faults;

import dev.matview.faults.LookupTally.Mode;
import dev.matview.processes.http.HttpProbe;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A client that carries positions: one lookup at a time of a customer's order count, a value that
 * only grows, with {@code allowStale=true} and the last {@code Matview-Position} an answer of the
 * view carried, on each instance in turn. Every value it reads is checked against the highest one
 * it saw of that key before.
 */
final class PositionedLookups implements AutoCloseable {

  /** The view looked up: orders per customer, which only grow. */
  static final String VIEW = ViewContents.ORDERS_PER_CUSTOMER;

  private static final String POSITION_HEADER = "Matview-Position";

  private final List<SampleInstance> instances;

  private final List<String> customers;

  private final Function<String, @Nullable Instant> firstOrder;

  private final LookupTally tally;

  private final MonotonicReads reads = new MonotonicReads();

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  // Read and written by the scheduler's one thread only, one lookup after the other.
  private int next;

  private @Nullable String position;

  PositionedLookups(
      List<SampleInstance> instances,
      List<String> customers,
      Function<String, @Nullable Instant> firstOrder,
      LookupTally tally) {
    this.instances = List.copyOf(instances);
    this.customers = List.copyOf(customers);
    this.firstOrder = firstOrder;
    this.tally = tally;
  }

  /** Starts looking up, one lookup after the other, {@code pauseMillis} apart. */
  void start(long pauseMillis) {
    this.scheduler.scheduleWithFixedDelay(this::lookUp, 0, pauseMillis, TimeUnit.MILLISECONDS);
  }

  /** Stops looking up and waits for the lookup in flight. */
  void stop() throws InterruptedException {
    this.scheduler.shutdown();
    this.scheduler.awaitTermination(1, TimeUnit.MINUTES);
  }

  /** The check of every value read against those read before. */
  MonotonicReads reads() {
    return this.reads;
  }

  @Override
  public void close() {
    this.scheduler.shutdownNow();
  }

  private void lookUp() {
    SampleInstance instance = this.instances.get(this.next);
    this.next = (this.next + 1) % this.instances.size();
    String customer =
        this.customers.get(ThreadLocalRandom.current().nextInt(this.customers.size()));
    String path = "/views/" + VIEW + "/keys/" + HttpProbe.encode(customer) + "?allowStale=true";
    String sentPosition = this.position;
    Instant sent = Instant.now();
    HttpProbe.Answer answer;
    try {
      answer =
          (sentPosition != null)
              ? instance.http().get(path, POSITION_HEADER, sentPosition)
              : instance.http().get(path);
    } catch (UncheckedIOException ex) {
      this.tally.unanswered(Mode.POSITIONED, LookupTally.unansweredOutcome(ex));
      return;
    }
    this.tally.answered(Mode.POSITIONED, VIEW, answer, sent, this.firstOrder.apply(customer));
    if (answer.status() != 200 && answer.status() != 404) {
      return;
    }
    Long value = (answer.status() == 200) ? answer.json().path("value").asLong() : null;
    this.reads.record(customer, value, describe(instance, answer));
    String carried = answer.header(POSITION_HEADER);
    if (!carried.isEmpty()) {
      this.position = carried;
    }
  }

  private static String describe(SampleInstance instance, HttpProbe.Answer answer) {
    return instance.name()
        + " (Matview-Served-By "
        + answer.header("Matview-Served-By")
        + ", Matview-Replica "
        + answer.header("Matview-Replica")
        + ", Matview-Offset-Lag "
        + answer.header("Matview-Offset-Lag")
        + ")";
  }
}
