package dev.matview.autoconfigure;

import java.util.Properties;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.springframework.kafka.config.KafkaStreamsCustomizer;

/**
 * Sets a standby update listener on each new {@link KafkaStreams}, then hands over to the
 * customizer that was there before, which still creates the instance and may customize it further.
 */
final class StandbyListenerCustomizer implements KafkaStreamsCustomizer {

  private final KafkaStreamsCustomizer delegate;

  private final StandbyUpdateListener listener;

  StandbyListenerCustomizer(KafkaStreamsCustomizer delegate, StandbyUpdateListener listener) {
    this.delegate = delegate;
    this.listener = listener;
  }

  @Override
  public KafkaStreams initKafkaStreams(
      Topology topology, Properties properties, KafkaClientSupplier clientSupplier) {
    return this.delegate.initKafkaStreams(topology, properties, clientSupplier);
  }

  @Override
  public void customize(KafkaStreams kafkaStreams) {
    kafkaStreams.setStandbyUpdateListener(this.listener);
    this.delegate.customize(kafkaStreams);
  }
}
