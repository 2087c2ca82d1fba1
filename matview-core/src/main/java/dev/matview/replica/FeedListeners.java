package dev.matview.replica;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.kafka.common.utils.Bytes;

/**
 * The listeners of a change feed, by the key they follow, each with the number of the first update
 * it is handed: an update reaches its key's listeners and those of every key, without a look at the
 * others. Changed under the feed's lock, read by the fan-out without one.
 */
final class FeedListeners {

  private static final Subscription[] NONE = new Subscription[0];

  private final ConcurrentMap<Bytes, Subscription[]> byKey = new ConcurrentHashMap<>();

  private volatile Subscription[] everyKey = NONE;

  private volatile int count;

  /** How many listeners there are. */
  int count() {
    return this.count;
  }

  /** Adds {@code listener}, to be handed the updates numbered {@code from} on. */
  void add(ChangeListener listener, long from) {
    Subscription subscription = new Subscription(listener, from);
    byte[] key = listener.key();
    if (key == null) {
      this.everyKey = joined(this.everyKey, new Subscription[] {subscription});
    } else {
      this.byKey.merge(Bytes.wrap(key), new Subscription[] {subscription}, FeedListeners::joined);
    }
    this.count++;
  }

  /** Takes {@code listener} out: whether it was in. */
  boolean remove(ChangeListener listener) {
    byte[] key = listener.key();
    boolean removed;
    if (key == null) {
      Subscription[] before = this.everyKey;
      this.everyKey = without(before, listener);
      removed = this.everyKey.length < before.length;
    } else {
      Bytes wrapped = Bytes.wrap(key);
      Subscription[] before = this.byKey.getOrDefault(wrapped, NONE);
      Subscription[] after = without(before, listener);
      if (after.length == 0) {
        this.byKey.remove(wrapped);
      } else {
        this.byKey.put(wrapped, after);
      }
      removed = after.length < before.length;
    }
    if (removed) {
      this.count--;
    }
    return removed;
  }

  /** Hands {@code change}, numbered {@code number}, to the listeners that are to have it. */
  void handOn(StoreChange change, long number) {
    Subscription[] keyed = this.byKey.get(Bytes.wrap(change.key()));
    if (keyed != null) {
      handOn(keyed, change, number);
    }
    handOn(this.everyKey, change, number);
  }

  /**
   * Takes out, and returns, every listener that was to have the updates from before {@code number}.
   */
  ChangeListener[] removeBefore(long number) {
    return Arrays.stream(all())
        .filter((subscription) -> subscription.from() < number)
        .map(Subscription::listener)
        .filter(this::remove)
        .toArray(ChangeListener[]::new);
  }

  /** Takes out, and returns, every listener. */
  ChangeListener[] removeAll() {
    ChangeListener[] all =
        Arrays.stream(all()).map(Subscription::listener).toArray(ChangeListener[]::new);
    this.byKey.clear();
    this.everyKey = NONE;
    this.count = 0;
    return all;
  }

  private static void handOn(Subscription[] subscriptions, StoreChange change, long number) {
    for (Subscription subscription : subscriptions) {
      if (subscription.from() <= number) {
        subscription.listener().changed(change);
      }
    }
  }

  private Subscription[] all() {
    Subscription[] all = this.everyKey;
    for (Subscription[] keyed : this.byKey.values()) {
      all = joined(all, keyed);
    }
    return all;
  }

  private static Subscription[] joined(Subscription[] first, Subscription[] second) {
    Subscription[] joined = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, joined, first.length, second.length);
    return joined;
  }

  private static Subscription[] without(Subscription[] subscriptions, ChangeListener removed) {
    return Arrays.stream(subscriptions)
        .filter((subscription) -> subscription.listener() != removed)
        .toArray(Subscription[]::new);
  }

  /** A listener, and the number of the first update it is handed. */
  private record Subscription(ChangeListener listener, long from) {}
}
