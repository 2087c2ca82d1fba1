package dev.matview.autoconfigure;

import dev.matview.query.routing.ReplicaDirectory;
import org.apache.kafka.streams.KafkaStreams;
import org.springframework.core.Ordered;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * Keeps the replica directory in step with the factory bean's Kafka Streams: the directory follows
 * each Kafka Streams the factory bean starts (through a factory bean listener, which adds to the
 * others) and is told of each change of its state through the factory bean's one state listener,
 * composed with the listener another configurer set there, never replacing it.
 *
 * <p>Runs after every other configurer, so that it sees the state listener they set.
 */
final class ReplicaDirectoryConfigurer extends StateListenerConfigurer {

  private final ReplicaDirectory directory;

  ReplicaDirectoryConfigurer(ReplicaDirectory directory) {
    super(directory, Ordered.LOWEST_PRECEDENCE);
    this.directory = directory;
  }

  @Override
  public void configure(StreamsBuilderFactoryBean factoryBean) {
    super.configure(factoryBean);
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
