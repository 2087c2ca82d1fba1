package dev.matview.autoconfigure;

import dev.matview.query.ReplicaDirectory;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;
import org.springframework.core.Ordered;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * Keeps the replica directory in step with the factory bean's Kafka Streams: the directory follows
 * each Kafka Streams the factory bean starts (through a factory bean listener, which adds to the
 * others) and is told of each change of its state through the factory bean's one state listener,
 * composed with the listener another configurer set there, never replacing it.
 *
 * <p>Runs after every other configurer, so that it sees the state listener they set.
 */
final class ReplicaDirectoryConfigurer implements StreamsBuilderFactoryBeanConfigurer {

  private final ReplicaDirectory directory;

  ReplicaDirectoryConfigurer(ReplicaDirectory directory) {
    this.directory = directory;
  }

  @Override
  public void configure(StreamsBuilderFactoryBean factoryBean) {
    List<KafkaStreams.StateListener> listeners = new ArrayList<>();
    listeners.add(this.directory);
    KafkaStreams.StateListener current = FactoryBeanSettings.stateListener(factoryBean);
    if (current instanceof CompositeStateListener composite) {
      composite.listeners().stream()
          .filter((listener) -> listener != this.directory)
          .forEach(listeners::add);
    } else if (current != null && current != this.directory) {
      listeners.add(current);
    }
    factoryBean.setStateListener(new CompositeStateListener(listeners));
    factoryBean.addListener(new DirectoryFollower(this.directory));
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }

  /** Calls several state listeners in order, because Kafka Streams holds only one. */
  static final class CompositeStateListener implements KafkaStreams.StateListener {

    private final List<KafkaStreams.StateListener> listeners;

    CompositeStateListener(List<KafkaStreams.StateListener> listeners) {
      this.listeners = List.copyOf(listeners);
    }

    /** The listeners called, in order. */
    List<KafkaStreams.StateListener> listeners() {
      return this.listeners;
    }

    @Override
    public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
      for (KafkaStreams.StateListener listener : this.listeners) {
        listener.onChange(newState, oldState);
      }
    }
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
