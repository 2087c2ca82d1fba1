package dev.matview.autoconfigure;

import dev.matview.query.routing.ReplicaDirectory;
import org.apache.kafka.streams.KafkaStreams;
import org.springframework.core.Ordered;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * Keeps the replica directory in step with each Kafka Streams the factory bean starts, told of its
 * state changes before every other state listener.
 */
final class ReplicaDirectoryConfigurer extends StateListenerContributor
    implements StreamsBuilderFactoryBeanConfigurer {

  private final ReplicaDirectory directory;

  ReplicaDirectoryConfigurer(ReplicaDirectory directory) {
    super(directory, Ordered.HIGHEST_PRECEDENCE);
    this.directory = directory;
  }

  @Override
  public void configure(StreamsBuilderFactoryBean factoryBean) {
    factoryBean.addListener(new DirectoryFollower(this.directory));
  }

  /** Points the directory at each Kafka Streams the factory bean starts, and away when it stops. */
  private record DirectoryFollower(ReplicaDirectory directory)
      implements StreamsBuilderFactoryBean.Listener {

    @Override
    public void streamsAdded(String id, KafkaStreams streams) {
      this.directory.attach(streams);
    }

    @Override
    public void streamsRemoved(String id, KafkaStreams streams) {
      this.directory.detach(streams);
    }
  }
}
