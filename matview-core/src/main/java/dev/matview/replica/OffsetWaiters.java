package dev.matview.replica;

import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The lookups that wait for one store partition to apply an offset, kept in the order of the
 * offsets they wait for, then of their arrival, so that an offset applied looks at the lowest of
 * them alone unless it is due: the stream thread pays the same whatever their number.
 */
public final class OffsetWaiters {

  private final ConcurrentSkipListMap<Waiter, Boolean> waiters =
      new ConcurrentSkipListMap<>(Waiter.ORDER);

  private final AtomicLong registered = new AtomicLong();

  private final AtomicLong examined = new AtomicLong();

  /** A wait for {@code offset}, kept here until it is woken or forgotten. */
  Waiter add(long offset, Runnable wake) {
    Waiter waiter = new Waiter(offset, this.registered.incrementAndGet(), wake);
    this.waiters.put(waiter, Boolean.TRUE);
    return waiter;
  }

  /** Forgets {@code waiter}, whose wait ended for another reason. */
  void forget(Waiter waiter) {
    waiter.cancel();
    this.waiters.remove(waiter);
  }

  boolean isEmpty() {
    return this.waiters.isEmpty();
  }

  /** How many lookups wait here. */
  int size() {
    return this.waiters.size();
  }

  /** How many waiters the offsets applied looked at, woken or not. */
  long examined() {
    return this.examined.get();
  }

  /** Wakes the waiters whose offset {@code reached} covers, lowest first, looking at no other. */
  void wakeDue(long reached) {
    Waiter lowest;
    while ((lowest = lowest()) != null) {
      this.examined.incrementAndGet();
      if (lowest.offset > reached) {
        return;
      }
      wake(lowest);
    }
  }

  /** Wakes every waiter, as when the store closes. */
  void wakeAll() {
    Waiter lowest;
    while ((lowest = lowest()) != null) {
      wake(lowest);
    }
  }

  private @Nullable Waiter lowest() {
    Map.Entry<Waiter, Boolean> first = this.waiters.firstEntry();
    return (first != null) ? first.getKey() : null;
  }

  /** Takes {@code waiter} out and wakes it, unless another thread took it or it was cancelled. */
  private void wake(Waiter waiter) {
    if (this.waiters.remove(waiter) != null && waiter.claim()) {
      waiter.wake.run();
    }
  }

  /** One wait for an offset; {@link #cancel()} it when the wait ends for another reason. */
  public static final class Waiter {

    /** By the offset waited for, then by the order of registration. */
    private static final Comparator<Waiter> ORDER =
        Comparator.<Waiter>comparingLong((waiter) -> waiter.offset)
            .thenComparingLong((waiter) -> waiter.number);

    private final long offset;

    private final long number;

    private final Runnable wake;

    private final AtomicLong state = new AtomicLong();

    Waiter(long offset, long number, Runnable wake) {
      this.offset = offset;
      this.number = number;
      this.wake = wake;
    }

    private boolean claim() {
      return this.state.compareAndSet(0, 1);
    }

    /**
     * Ends the wait without waking it: true when it had not been woken, so the caller owns the
     * outcome.
     */
    public boolean cancel() {
      return this.state.compareAndSet(0, 2);
    }
  }
}
