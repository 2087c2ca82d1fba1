package dev.matview.autoconfigure;

import dev.matview.kafka.ComposingKafkaStreams;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.KafkaStreams;
import org.springframework.core.Ordered;
import org.springframework.kafka.config.KafkaStreamsCustomizer;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * Has the factory bean create each Kafka Streams through {@link MatviewKafkaStreamsCustomizer}, in
 * its one {@link KafkaStreamsCustomizer} slot, which Matview owns.
 *
 * <p>The factory bean has no getter for its customizer, so this configurer runs last and replaces
 * another's; declare {@link KafkaStreamsCustomizer} beans instead, which Matview's customizer
 * applies in order, and a factory bean listener logs an error for a Kafka Streams created without
 * Matview's listeners.
 */
final class MatviewKafkaStreamsConfigurer implements StreamsBuilderFactoryBeanConfigurer {

  private static final Log logger = LogFactory.getLog(MatviewKafkaStreamsConfigurer.class);

  private final MatviewKafkaStreamsCustomizer customizer;

  MatviewKafkaStreamsConfigurer(MatviewKafkaStreamsCustomizer customizer) {
    this.customizer = customizer;
  }

  @Override
  public void configure(StreamsBuilderFactoryBean factoryBean) {
    factoryBean.setKafkaStreamsCustomizer(this.customizer);
    factoryBean.addListener(new ForeignStreamsReport());
  }

  /** The customizer this configurer sets. */
  MatviewKafkaStreamsCustomizer customizer() {
    return this.customizer;
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }

  /** Reports each Kafka Streams that the factory bean starts without Matview's customizer. */
  private static final class ForeignStreamsReport implements StreamsBuilderFactoryBean.Listener {

    @Override
    public void streamsAdded(String id, KafkaStreams streams) {
      if (!(streams instanceof ComposingKafkaStreams)) {
        logger.error(
            ("Kafka Streams '%s' was created by a KafkaStreamsCustomizer set on the factory bean"
                    + " after Matview's, so Matview's listeners (its replica directory, restore"
                    + " tracking and health) are not called, its clients are given Matview's keys"
                    + " and the peers' secret is not agreed on when it starts. Declare the"
                    + " customizer as a KafkaStreamsCustomizer bean instead: Matview calls each"
                    + " one's customize(KafkaStreams) in order.")
                .formatted(id));
      }
    }
  }
}
