package dev.matview.query.answer;

import org.apache.kafka.streams.state.HostInfo;

/**
 * A store partition and the instance that holds its active replica.
 *
 * @param partition the partition
 * @param host the instance holding its active replica, as Kafka Streams metadata names it
 */
public record PartitionOwner(int partition, HostInfo host) {

  /** The owner as {@code host:port}. */
  public String describe() {
    return this.host.host() + ":" + this.host.port();
  }
}
