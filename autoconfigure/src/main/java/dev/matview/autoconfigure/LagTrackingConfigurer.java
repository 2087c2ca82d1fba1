package dev.matview.autoconfigure;

import dev.matview.health.CompositeStandbyUpdateListener;
import dev.matview.health.CompositeStateRestoreListener;
import dev.matview.health.RestoreLagTracker;
import dev.matview.replica.StoreHandles;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;
import org.springframework.kafka.config.KafkaStreamsCustomizer;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * Feeds the restore lag tracker from the factory bean's one global restore listener and from each
 * Kafka Streams' standby update listener, composed with the user's listeners, never replacing them.
 *
 * <p>Runs after every other configurer. The restore listener calls the tracker first, then the
 * store handles, then the listener another configurer set on the factory bean, then every {@link
 * StateRestoreListener} bean; the standby listener calls the tracker and the store handles, then
 * every {@link StandbyUpdateListener} bean. The standby listener is set by a streams customizer
 * that wraps the one already set. A store that Kafka Streams opens makes the tracker forget the lag
 * of the store of that partition before it.
 */
final class LagTrackingConfigurer implements StreamsBuilderFactoryBeanConfigurer {

  private final RestoreLagTracker tracker;

  private final @Nullable StoreHandles handles;

  private final ObjectProvider<StateRestoreListener> restoreListeners;

  private final ObjectProvider<StandbyUpdateListener> standbyListeners;

  LagTrackingConfigurer(
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
  public void configure(StreamsBuilderFactoryBean factoryBean) {
    if (this.handles != null) {
      this.handles.whenOpened(this.tracker::storeOpened);
    }
    List<StateRestoreListener> restore = new ArrayList<>();
    addOnce(restore, this.tracker);
    addOnce(restore, this.handles);
    StateRestoreListener current = FactoryBeanSettings.stateRestoreListener(factoryBean);
    if (current instanceof CompositeStateRestoreListener composite) {
      composite.listeners().forEach((listener) -> addOnce(restore, listener));
    } else {
      addOnce(restore, current);
    }
    this.restoreListeners.orderedStream().forEach((listener) -> addOnce(restore, listener));
    factoryBean.setStateRestoreListener(new CompositeStateRestoreListener(restore));

    List<StandbyUpdateListener> standby = new ArrayList<>();
    addOnce(standby, this.tracker);
    addOnce(standby, this.handles);
    this.standbyListeners.orderedStream().forEach((listener) -> addOnce(standby, listener));
    KafkaStreamsCustomizer customizer = FactoryBeanSettings.kafkaStreamsCustomizer(factoryBean);
    factoryBean.setKafkaStreamsCustomizer(
        new StandbyListenerCustomizer(
            (customizer != null) ? customizer : (kafkaStreams) -> {},
            new CompositeStandbyUpdateListener(standby)));
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }

  private static <T> void addOnce(List<T> listeners, @Nullable T listener) {
    if (listener != null && listeners.stream().noneMatch((added) -> added == listener)) {
      listeners.add(listener);
    }
  }
}
