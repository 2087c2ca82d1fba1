package dev.matview.query.answer;

import org.apache.kafka.streams.state.HostInfo;

/** A store partition and the instance, as Kafka Streams names it, of its active replica. */
public record PartitionOwner(int partition, HostInfo host) {

  /** The owner as {@code host:port}. */
  public String describe() {
    return this.host.host() + ":" + this.host.port();
  }
}
