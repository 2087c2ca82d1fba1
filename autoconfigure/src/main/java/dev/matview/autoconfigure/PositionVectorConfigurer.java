package dev.matview.autoconfigure;

import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * Has Kafka Streams write each update's position into its changelog record (KIP-796's offset
 * vector), so standbys and restores know how far their store has applied its topic; the switch is
 * internal, and {@code PositionVectorTests} fails when it stops working.
 */
final class PositionVectorConfigurer implements StreamsBuilderFactoryBeanConfigurer {

  /** Kafka Streams' switch for the position written with each changelog record. */
  static final String SWITCH = StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED;

  @Override
  public void configure(StreamsBuilderFactoryBean factoryBean) {
    Properties streams = factoryBean.getStreamsConfiguration();
    if (streams == null) {
      return;
    }
    streams.putIfAbsent(SWITCH, "true");
    factoryBean.setStreamsConfiguration(streams);
  }

  @Override
  public int getOrder() {
    return 0;
  }
}
