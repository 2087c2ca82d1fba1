package dev.matview.autoconfigure;

import org.apache.kafka.streams.KafkaStreams;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * Has a listener hear Kafka Streams' changes of state through the factory bean's one state
 * listener, composed with the listener another configurer set there, never replacing it: of two
 * such configurers, the listener of the one that runs last is called first.
 */
class StateListenerConfigurer implements StreamsBuilderFactoryBeanConfigurer {

  private final KafkaStreams.StateListener listener;

  private final int order;

  /** A configurer that adds {@code listener} when it runs, in {@code order}. */
  StateListenerConfigurer(KafkaStreams.StateListener listener, int order) {
    this.listener = listener;
    this.order = order;
  }

  @Override
  public void configure(StreamsBuilderFactoryBean factoryBean) {
    factoryBean.setStateListener(
        CompositeStateListener.of(this.listener, FactoryBeanSettings.stateListener(factoryBean)));
  }

  @Override
  public int getOrder() {
    return this.order;
  }
}
