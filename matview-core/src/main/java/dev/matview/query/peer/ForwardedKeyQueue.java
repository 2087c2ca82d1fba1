package dev.matview.query.peer;

import dev.matview.query.answer.PartitionOwner;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The lookups waiting for one destination of {@link ForwardedKeyLookups}, and how many requests are
 * on their way there. A queue that falls idle retires and leaves the map, so that callers'
 * credentials are not kept.
 */
final class ForwardedKeyQueue {

  /** The turn of a waiting lookup that is to send the next request. */
  static final Object LEAD = new Object();

  private final ArrayDeque<Lookup> waiting = new ArrayDeque<>();

  private int inFlight;

  private boolean retired;

  /**
   * Whether {@code lookup} may send a request at once, else it waits for its turn; {@code null}
   * when this queue has retired and a new one must be taken.
   */
  synchronized @Nullable Boolean enter(Lookup lookup) {
    if (this.retired) {
      return null;
    }
    if (this.inFlight < ForwardedKeyLookups.MAX_REQUESTS_IN_FLIGHT) {
      this.inFlight++;
      return true;
    }
    this.waiting.add(lookup);
    return false;
  }

  /** {@code first} and the lookups waiting now, as many as one request carries. */
  synchronized List<Lookup> batch(Lookup first) {
    int max = ForwardedKeyLookups.MAX_KEYS;
    List<Lookup> batch = new ArrayList<>(Math.min(max, this.waiting.size() + 1));
    batch.add(first);
    while (batch.size() < max && !this.waiting.isEmpty()) {
      batch.add(Objects.requireNonNull(this.waiting.poll()));
    }
    return batch;
  }

  synchronized int waiting() {
    return this.waiting.size();
  }

  /** Whether {@code lookup} was still waiting, and now no longer is. */
  synchronized boolean withdraw(Lookup lookup) {
    return this.waiting.remove(lookup);
  }

  /**
   * Hands the request's place to the next waiting lookup, or frees it; whether the queue is idle
   * now, and retired.
   */
  synchronized boolean leave() {
    Lookup next = this.waiting.poll();
    if (next != null) {
      next.turn().complete(LEAD);
      return false;
    }
    this.inFlight--;
    this.retired = this.inFlight == 0;
    return this.retired;
  }

  /** One lookup to forward, completed with its answer or told to lead the next request. */
  record Lookup(PartitionOwner owner, String rawKey, CompletableFuture<Object> turn) {

    Lookup(PartitionOwner owner, String rawKey) {
      this(owner, rawKey, new CompletableFuture<>());
    }
  }
}
