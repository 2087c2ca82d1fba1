package dev.matview.kafka;

import java.util.Properties;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.jspecify.annotations.Nullable;

/**
 * A Kafka Streams whose state, global restore and standby update listeners call Matview's listeners
 * as well as the one set through each setter, so that setting one composes with Matview's rather
 * than replacing them.
 *
 * <p>Kafka Streams holds one listener of each kind and offers setters but no getters, and
 * spring-kafka's {@code StreamsBuilderFactoryBean} sets its own state and restore listeners (those
 * its configurers set) on each instance its customizer creates, before the customizer customizes
 * it. Overriding the public setters is how Matview composes with them through public API only; a
 * later call to a setter replaces the listener set before it, never Matview's.
 */
public final class ComposingKafkaStreams extends KafkaStreams {

  private final StreamsListeners listeners;

  /**
   * Creates a Kafka Streams of {@code topology} whose clients {@code clientSupplier} creates, with
   * {@code listeners} installed until others are set.
   */
  public ComposingKafkaStreams(
      Topology topology,
      Properties properties,
      KafkaClientSupplier clientSupplier,
      StreamsListeners listeners) {
    super(topology, properties, clientSupplier);
    this.listeners = listeners;
    super.setStateListener(listeners.state(null));
    super.setGlobalStateRestoreListener(listeners.restore(null));
    super.setStandbyUpdateListener(listeners.standby(null));
  }

  @Override
  public void setStateListener(KafkaStreams.@Nullable StateListener listener) {
    super.setStateListener(this.listeners.state(listener));
  }

  @Override
  public void setGlobalStateRestoreListener(@Nullable StateRestoreListener listener) {
    super.setGlobalStateRestoreListener(this.listeners.restore(listener));
  }

  @Override
  public void setStandbyUpdateListener(@Nullable StandbyUpdateListener listener) {
    super.setStandbyUpdateListener(this.listeners.standby(listener));
  }
}
