package dev.matview.autoconfigure;

import dev.matview.health.RestoreLagTracker;
import dev.matview.kafka.StreamsListeners;
import dev.matview.replica.StoreHandles;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;

/**
 * Feeds the restore lag tracker from each Kafka Streams' restore and standby update listeners,
 * composed with the user's: the tracker first, then the store handles, the listener set on Kafka
 * Streams, and every listener bean in order.
 */
final class LagTrackingContributor implements StreamsListenersContributor {

  private final RestoreLagTracker tracker;

  private final @Nullable StoreHandles handles;

  private final ObjectProvider<StateRestoreListener> restoreListeners;

  private final ObjectProvider<StandbyUpdateListener> standbyListeners;

  LagTrackingContributor(
      RestoreLagTracker tracker,
      @Nullable StoreHandles handles,
      ObjectProvider<StateRestoreListener> restoreListeners,
      ObjectProvider<StandbyUpdateListener> standbyListeners) {
    this.tracker = tracker;
    this.handles = handles;
    this.restoreListeners = restoreListeners;
    this.standbyListeners = standbyListeners;
  }

  @Override
  public void contribute(StreamsListeners.Builder listeners) {
    listeners.restoreBefore(this.tracker).standbyBefore(this.tracker);
    if (this.handles != null) {
      this.handles.whenOpened(this.tracker::storeOpened);
      listeners.restoreBefore(this.handles).standbyBefore(this.handles);
    }
    this.restoreListeners.orderedStream().forEach(listeners::restoreAfter);
    this.standbyListeners.orderedStream().forEach(listeners::standbyAfter);
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }
}
