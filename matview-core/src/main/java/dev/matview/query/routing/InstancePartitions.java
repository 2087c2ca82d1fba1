package dev.matview.query.routing;

import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.HostInfo;

/**
 * One instance of the application and the partitions of each view's store that it holds.
 *
 * @param host the instance's address, its {@code application.server}
 * @param local whether it is this instance
 * @param active the partitions it holds as active replica, by view, in view and partition order
 * @param standby the partitions it holds as standby replica, by view, in view and partition order
 */
public record InstancePartitions(
    HostInfo host,
    boolean local,
    Map<String, List<Integer>> active,
    Map<String, List<Integer>> standby) {

  /** The instance's {@code host:port}. */
  public String describe() {
    return this.host.host() + ":" + this.host.port();
  }
}
