package dev.matview.autoconfigure;

import dev.matview.changes.ChangeStreams;
import dev.matview.changes.UpstreamChanges;
import dev.matview.execution.MatviewExecutors;
import dev.matview.position.PositionTokens;
import dev.matview.query.ViewQueryService;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.routing.Routing;
import dev.matview.replica.StoreHandles;
import dev.matview.topology.ViewSerdes;
import dev.matview.web.ChangeStreamController;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/** The change streams' endpoints, streams and relays, as {@code matview.changes.*} sets them. */
@Configuration(proxyBeanMethods = false)
final class MatviewChangeStreamsConfiguration {

  /** Events a response may hold beyond the buffer: a batch, or one chunk of a relayed stream. */
  private static final int RELAYED_CHUNK_EVENTS = 512;

  @Bean
  @ConditionalOnMissingBean
  UpstreamChanges matviewUpstreamChanges(PeerClient peerClient, MatviewProperties properties) {
    return new UpstreamChanges(peerClient, heartbeat(properties.getChanges().getHeartbeat()));
  }

  @Bean
  @ConditionalOnMissingBean
  ChangeStreams matviewChangeStreams(
      ViewQueryService queryService,
      Routing routing,
      StoreHandles handles,
      ViewSerdes serdes,
      PositionTokens tokens,
      UpstreamChanges upstream,
      MatviewProperties properties,
      Environment environment,
      MatviewExecutors executors) {
    MatviewProperties.Changes changes = properties.getChanges();
    refuseReplaced(environment);
    InvalidMatviewPropertyException.requireAtLeastOne(
        "matview.changes.buffer", changes.getBuffer());
    InvalidMatviewPropertyException.requireAtLeastOne(
        "matview.changes.max-streams", changes.getMaxStreams());
    handles
        .positions()
        .keepHistory(
            historySize(changes.getHistorySize()),
            InvalidMatviewPropertyException.requireNotNegative(
                "matview.changes.history-linger", changes.getHistoryLinger(), "30s"));
    return new ChangeStreams(
        queryService,
        routing,
        handles.positions(),
        serdes.mapper(),
        tokens,
        upstream,
        changes.getBuffer(),
        changes.getMaxStreams(),
        heartbeat(changes.getHeartbeat()),
        executors.timer(),
        executors.workers());
  }

  @Bean
  @ConditionalOnMissingBean
  ChangeStreamController matviewChangeStreamController(
      ChangeStreams streams, MatviewProperties properties) {
    int buffer = Math.max(1, properties.getChanges().getBuffer());
    return new ChangeStreamController(
        streams,
        MatviewWebAutoConfiguration.requestLimits(properties),
        buffer + RELAYED_CHUNK_EVENTS);
  }

  private static Duration heartbeat(Duration heartbeat) {
    if (heartbeat.compareTo(Duration.ofMillis(100)) < 0) {
      throw InvalidMatviewPropertyException.atLeast(
          "matview.changes.heartbeat", heartbeat, "100ms", "15s");
    }
    return heartbeat;
  }

  /** Refuses {@code matview.changes.history}, which the byte bound replaced. */
  private static void refuseReplaced(Environment environment) {
    String replaced = "matview.changes.history";
    if (environment.containsProperty(replaced)) {
      throw new InvalidMatviewPropertyException(
          replaced,
          environment.getProperty(replaced),
          "the history is now bounded in bytes, and this count no longer does anything",
          "Remove "
              + replaced
              + " and set matview.changes.history-size, for example 1MB, and"
              + " matview.changes.history-linger, for example 30s");
    }
  }

  private static long historySize(DataSize size) {
    if (size.toBytes() < 1) {
      throw InvalidMatviewPropertyException.atLeast(
          "matview.changes.history-size", size, "1B", "1MB");
    }
    return size.toBytes();
  }
}
