package dev.matview.kafka;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.jspecify.annotations.Nullable;

/**
 * The listeners that Matview keeps on a Kafka Streams around the one listener of each kind set on
 * it: each kind calls the listeners added before, then the one set, then the listeners added after,
 * each listener once.
 */
public final class StreamsListeners {

  private final List<KafkaStreams.StateListener> stateBefore;

  private final List<StateRestoreListener> restoreBefore;

  private final List<StateRestoreListener> restoreAfter;

  private final List<StandbyUpdateListener> standbyBefore;

  private final List<StandbyUpdateListener> standbyAfter;

  private StreamsListeners(Builder builder) {
    this.stateBefore = List.copyOf(builder.stateBefore);
    this.restoreBefore = List.copyOf(builder.restoreBefore);
    this.restoreAfter = List.copyOf(builder.restoreAfter);
    this.standbyBefore = List.copyOf(builder.standbyBefore);
    this.standbyAfter = List.copyOf(builder.standbyAfter);
  }

  /** A builder with no listeners yet. */
  public static Builder builder() {
    return new Builder();
  }

  /** The state listener to install when {@code set}, or none, is the one set. */
  public CompositeStateListener state(KafkaStreams.@Nullable StateListener set) {
    return new CompositeStateListener(around(this.stateBefore, set, List.of()));
  }

  /** The global restore listener to install when {@code set}, or none, is the one set. */
  public CompositeStateRestoreListener restore(@Nullable StateRestoreListener set) {
    return new CompositeStateRestoreListener(around(this.restoreBefore, set, this.restoreAfter));
  }

  /** The standby update listener to install when {@code set}, or none, is the one set. */
  public CompositeStandbyUpdateListener standby(@Nullable StandbyUpdateListener set) {
    return new CompositeStandbyUpdateListener(around(this.standbyBefore, set, this.standbyAfter));
  }

  private static <T> List<T> around(List<T> before, @Nullable T set, List<T> after) {
    List<T> listeners = new ArrayList<>(before);
    if (set != null && !holds(listeners, set) && !holds(after, set)) {
      listeners.add(set);
    }
    listeners.addAll(after);
    return listeners;
  }

  private static <T> boolean holds(List<T> listeners, T listener) {
    return listeners.stream().anyMatch((added) -> added == listener);
  }

  /** Adds listeners in the order they are to be called; one added twice is called once. */
  public static final class Builder {

    private final List<KafkaStreams.StateListener> stateBefore = new ArrayList<>();

    private final List<StateRestoreListener> restoreBefore = new ArrayList<>();

    private final List<StateRestoreListener> restoreAfter = new ArrayList<>();

    private final List<StandbyUpdateListener> standbyBefore = new ArrayList<>();

    private final List<StandbyUpdateListener> standbyAfter = new ArrayList<>();

    private Builder() {}

    /** Calls {@code listener} before the state listener set. */
    public Builder stateBefore(KafkaStreams.StateListener listener) {
      addOnce(this.stateBefore, listener, List.of());
      return this;
    }

    /** Calls {@code listener} before the global restore listener set. */
    public Builder restoreBefore(StateRestoreListener listener) {
      addOnce(this.restoreBefore, listener, this.restoreAfter);
      return this;
    }

    /** Calls {@code listener} after the global restore listener set. */
    public Builder restoreAfter(StateRestoreListener listener) {
      addOnce(this.restoreAfter, listener, this.restoreBefore);
      return this;
    }

    /** Calls {@code listener} before the standby update listener set. */
    public Builder standbyBefore(StandbyUpdateListener listener) {
      addOnce(this.standbyBefore, listener, this.standbyAfter);
      return this;
    }

    /** Calls {@code listener} after the standby update listener set. */
    public Builder standbyAfter(StandbyUpdateListener listener) {
      addOnce(this.standbyAfter, listener, this.standbyBefore);
      return this;
    }

    /** The listeners added so far. */
    public StreamsListeners build() {
      return new StreamsListeners(this);
    }

    private static <T> void addOnce(List<T> listeners, T listener, List<T> others) {
      if (!holds(listeners, listener) && !holds(others, listener)) {
        listeners.add(listener);
      }
    }
  }
}
