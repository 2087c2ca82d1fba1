package dev.matview.query.local;

import dev.matview.kafka.QuietStreamsConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.jspecify.annotations.Nullable;

/**
 * One admin client, made on first use with Kafka Streams' settings, for what lookups that wait for
 * a position ask the broker: where a source partition ends, and how far the application has
 * committed. Plain lookups never use it.
 */
public final class BrokerAdmin implements AutoCloseable {

  /** How long one call to the broker may take. */
  static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final Supplier<Properties> streamsConfiguration;

  private final String clientId;

  private @Nullable Admin admin;

  private boolean closed;

  /** An admin configured as Kafka Streams configures its own, from {@code streamsConfiguration}. */
  public BrokerAdmin(Supplier<Properties> streamsConfiguration, String clientId) {
    this.streamsConfiguration = streamsConfiguration;
    this.clientId = clientId;
  }

  /** The admin client, made now if it was not yet. */
  synchronized Admin get() {
    if (this.closed) {
      throw new IllegalStateException("This instance shuts down");
    }
    Admin known = this.admin;
    if (known == null) {
      Map<String, Object> configs =
          new QuietStreamsConfig(this.streamsConfiguration.get()).getAdminConfigs(this.clientId);
      int timeoutMs = (int) TIMEOUT.toMillis();
      configs.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
      configs.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
      known = Admin.create(configs);
      this.admin = known;
    }
    return known;
  }

  @Override
  public synchronized void close() {
    this.closed = true;
    Admin known = this.admin;
    if (known != null) {
      known.close(Duration.ZERO);
    }
  }
}
