package dev.matview.changes;

import dev.matview.replica.StoreChange;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The updates one change stream holds for its client: at most its buffer, taking memory only for
 * those it holds, each counted while it waits in the count that every stream of the instance
 * shares.
 */
final class WaitingUpdates {

  private final LinkedBlockingQueue<StoreChange> queue;

  private final AtomicInteger waiting;

  /** Room for {@code buffer} updates (at least one), counted in {@code waiting}. */
  WaitingUpdates(int buffer, AtomicInteger waiting) {
    this.queue = new LinkedBlockingQueue<>(Math.max(1, buffer));
    this.waiting = waiting;
  }

  /** Keeps {@code change}: whether there was room for it. */
  boolean offer(StoreChange change) {
    if (this.queue.offer(change)) {
      this.waiting.incrementAndGet();
      return true;
    }
    return false;
  }

  /** The first update kept, no longer counted, or {@code null} when none is. */
  @Nullable StoreChange poll() {
    StoreChange change = this.queue.poll();
    if (change != null) {
      this.waiting.decrementAndGet();
    }
    return change;
  }

  /** Whether no update is kept. */
  boolean isEmpty() {
    return this.queue.isEmpty();
  }

  /** Lets go of every update kept. */
  void discard() {
    while (this.queue.poll() != null) {
      this.waiting.decrementAndGet();
    }
  }
}
