package dev.matview.autoconfigure;

import dev.matview.execution.MatviewExecutors;
import dev.matview.peer.PeerTrust;
import dev.matview.position.PositionTokens;
import dev.matview.query.KeyParser;
import dev.matview.query.LookupMetrics;
import dev.matview.query.ViewBatchService;
import dev.matview.query.ViewQueryService;
import dev.matview.query.ViewScanService;
import dev.matview.query.local.LocalReplicas;
import dev.matview.query.local.LocalStores;
import dev.matview.query.peer.Fallbacks;
import dev.matview.query.peer.MomentaryRefusals;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.peer.PeerMarks;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.LookupGate;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.StaleReads;
import dev.matview.query.scan.CursorCodec;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import java.time.Clock;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The lookup, scan and batch services that answer from any instance. */
@Configuration(proxyBeanMethods = false)
final class MatviewQueryConfiguration {

  /** The longest time a lookup may be routed again after momentary refusals. */
  private static final Duration MAX_RETRY_WITHIN = Duration.ofSeconds(10);

  @Bean
  @ConditionalOnMissingBean
  MomentaryRefusals matviewMomentaryRefusals(
      MatviewProperties properties, MatviewExecutors executors) {
    Duration within =
        InvalidMatviewPropertyException.requireWithin(
            "matview.lookups.retry-within",
            properties.getLookups().getRetryWithin(),
            MAX_RETRY_WITHIN,
            "1s");
    return new MomentaryRefusals(within, executors.timer(), executors.workers());
  }

  @Bean
  @ConditionalOnMissingBean
  ViewQueryService matviewViewQueryService(
      ViewRegistry registry,
      Routing routing,
      LocalStores localStores,
      PeerClient peerClient,
      LocalInstance localInstance,
      ViewSerdes serdes,
      MatviewProperties properties,
      PeerMarks peerMarks,
      LookupGate lookupGate,
      MomentaryRefusals momentaryRefusals,
      MatviewExecutors executors,
      ObjectProvider<LocalReplicas> localReplicas,
      ObjectProvider<LookupMetrics> lookupMetrics) {
    MatviewProperties.StandbyReads standbyReads = properties.getStandbyReads();
    InvalidMatviewPropertyException.requireNotNegative(
        "matview.standby-reads.max-lag", standbyReads.getMaxLag(), "10000");
    LocalReplicas replicas = localReplicas.getIfAvailable(() -> LocalReplicas.NONE);
    Fallbacks fallbacks =
        new Fallbacks(
            routing,
            localStores,
            peerClient,
            localInstance,
            replicas,
            new StaleReads(standbyReads.isEnabled(), standbyReads.getMaxLag()),
            peerMarks,
            lookupGate,
            momentaryRefusals,
            executors.timer(),
            executors.workers());
    return new ViewQueryService(
        registry,
        localStores,
        new KeyParser(serdes.mapper()),
        Clock.systemUTC(),
        fallbacks,
        lookupMetrics.getIfAvailable(() -> LookupMetrics.NONE));
  }

  @Bean
  @ConditionalOnMissingBean
  ViewScanService matviewViewScanService(
      ViewQueryService queryService,
      Routing routing,
      LocalStores localStores,
      PeerClient peerClient,
      ViewSerdes serdes,
      PeerTrust peerTrust,
      MatviewProperties properties,
      PositionTokens positionTokens) {
    int maxPageSize =
        InvalidMatviewPropertyException.requireAtLeastOne(
            "matview.web.max-page-size", properties.getWeb().getMaxPageSize());
    return new ViewScanService(
        queryService,
        routing,
        localStores,
        peerClient,
        new KeyParser(serdes.mapper()),
        new CursorCodec(peerTrust),
        serdes.mapper(),
        Clock.systemUTC(),
        maxPageSize,
        positionTokens);
  }

  @Bean
  @ConditionalOnMissingBean
  PositionTokens matviewPositionTokens(PeerTrust peerTrust, ViewRegistry registry) {
    return new PositionTokens(peerTrust, registry.applicationId());
  }

  @Bean
  @ConditionalOnMissingBean
  ViewBatchService matviewViewBatchService(
      ViewQueryService queryService,
      Routing routing,
      PeerClient peerClient,
      PeerMarks peerMarks,
      ViewSerdes serdes,
      MatviewProperties properties,
      PositionTokens positionTokens) {
    int maxBatchSize =
        InvalidMatviewPropertyException.requireAtLeastOne(
            "matview.web.max-batch-size", properties.getWeb().getMaxBatchSize());
    return new ViewBatchService(
        queryService,
        routing,
        peerClient,
        peerMarks,
        serdes.mapper(),
        maxBatchSize,
        positionTokens);
  }
}
