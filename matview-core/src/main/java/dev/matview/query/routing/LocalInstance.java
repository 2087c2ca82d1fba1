package dev.matview.query.routing;

import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/** This instance's address as other instances and Kafka Streams metadata know it. */
public final class LocalInstance {

  private volatile @Nullable HostInfo hostInfo;

  /** Records the address once the web server's port is known. */
  public void setHostInfo(HostInfo hostInfo) {
    this.hostInfo = hostInfo;
  }

  /** The address, or {@code null} before the web server has started. */
  public @Nullable HostInfo hostInfo() {
    return this.hostInfo;
  }

  /** The {@code host:port} that identifies this instance in answers. */
  public String describe() {
    HostInfo info = this.hostInfo;
    return info != null ? info.host() + ":" + info.port() : "unknown";
  }
}
