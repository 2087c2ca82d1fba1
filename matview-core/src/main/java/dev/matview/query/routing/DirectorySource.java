package dev.matview.query.routing;

import java.util.Collection;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsMetadata;

/** What the {@link ReplicaDirectory} reads of a Kafka Streams, apart so that tests can feed it. */
public interface DirectorySource {

  /** Its state now. */
  KafkaStreams.State state();

  /** The metadata of every instance; throws while Kafka Streams is not running. */
  Collection<StreamsMetadata> metadata();

  /** The source that reads {@code streams}. */
  static DirectorySource of(KafkaStreams streams) {
    return new Streams(streams);
  }

  /** A running Kafka Streams. */
  record Streams(KafkaStreams streams) implements DirectorySource {

    @Override
    public KafkaStreams.State state() {
      return this.streams.state();
    }

    @Override
    public Collection<StreamsMetadata> metadata() {
      return this.streams.metadataForAllStreamsClients();
    }
  }
}
