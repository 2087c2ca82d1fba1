package dev.matview.autoconfigure;

import dev.matview.execution.MatviewExecutors;
import dev.matview.peer.PeerRequests;
import dev.matview.position.PositionTokens;
import dev.matview.query.ScanMetrics;
import dev.matview.query.ViewBatchService;
import dev.matview.query.ViewQueryService;
import dev.matview.query.ViewScanService;
import dev.matview.query.peer.MomentaryRefusals;
import dev.matview.topology.ViewSerdes;
import dev.matview.web.Consistency;
import dev.matview.web.ForwardedKeysController;
import dev.matview.web.PartitionSlicesController;
import dev.matview.web.PeerRequestFilter;
import dev.matview.web.ProblemErrorPageFilter;
import dev.matview.web.ProblemResolver;
import dev.matview.web.RequestLimits;
import dev.matview.web.ViewController;
import dev.matview.web.ViewProblemHandler;
import dev.matview.web.ViewScanController;
import java.time.Duration;
import org.apache.catalina.startup.Tomcat;
import org.eclipse.jetty.server.Server;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.jetty.ConfigurableJettyWebServerFactory;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/**
 * Registers the lookup endpoints and the problem details of every way a request to them can fail,
 * the server's own errors included; the change streams' are {@link
 * MatviewChangeStreamsConfiguration}'s.
 */
@AutoConfiguration(after = MatviewAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBean(ViewQueryService.class)
@ConditionalOnBooleanProperty(name = "matview.web.enabled", matchIfMissing = true)
@Import({MatviewChangeStreamsConfiguration.class, EncodedSlashConfiguration.class})
public final class MatviewWebAutoConfiguration {

  /** The longest wait for a position: a request thread's async time is bounded by it. */
  private static final Duration MAX_WAIT = Duration.ofMinutes(1);

  @Bean
  @ConditionalOnMissingBean
  Consistency matviewConsistency(
      PositionTokens tokens,
      MatviewProperties properties,
      MomentaryRefusals momentaryRefusals,
      MatviewExecutors executors,
      ViewQueryService queries) {
    Duration maxWait =
        InvalidMatviewPropertyException.requireWithin(
            "matview.consistency.max-wait",
            properties.getConsistency().getMaxWait(),
            MAX_WAIT,
            "2s");
    return new Consistency(
        tokens,
        maxWait,
        properties.getForwarding().getTimeout().plus(momentaryRefusals.within()),
        executors.timer(),
        executors.workers(),
        queries::written);
  }

  @Bean
  @ConditionalOnMissingBean
  ViewController matviewViewController(
      ViewQueryService queryService,
      ViewBatchService batchService,
      ViewSerdes serdes,
      MatviewProperties properties,
      Consistency consistency) {
    return new ViewController(
        queryService, batchService, serdes.mapper(), requestLimits(properties), consistency);
  }

  @Bean
  @ConditionalOnMissingBean
  ForwardedKeysController matviewForwardedKeysController(
      ViewQueryService queryService,
      ViewSerdes serdes,
      MatviewProperties properties,
      ObjectProvider<RequestMappingHandlerAdapter> handlerAdapter,
      Consistency consistency) {
    return new ForwardedKeysController(
        queryService,
        serdes.mapper(),
        requestLimits(properties),
        () -> handlerAdapter.getObject().getMessageConverters(),
        consistency);
  }

  @Bean
  @ConditionalOnMissingBean
  ViewScanController matviewViewScanController(
      ViewScanService scanService,
      Consistency consistency,
      ViewSerdes serdes,
      ObjectProvider<ScanMetrics> metrics,
      MatviewProperties properties) {
    return new ViewScanController(
        scanService,
        consistency,
        serdes.mapper(),
        metrics.getIfAvailable(() -> ScanMetrics.NONE),
        requestLimits(properties));
  }

  @Bean
  @ConditionalOnMissingBean
  PartitionSlicesController matviewPartitionSlicesController(
      ViewScanService scanService, Consistency consistency) {
    return new PartitionSlicesController(scanService, consistency);
  }

  @Bean
  @ConditionalOnMissingBean
  ViewProblemHandler matviewViewProblemHandler() {
    return new ViewProblemHandler();
  }

  @Bean
  @ConditionalOnBean(PeerRequests.class)
  @ConditionalOnMissingBean(name = "matviewPeerRequestFilter")
  FilterRegistrationBean<FirstRequestFilter> matviewPeerRequestFilter(
      ObjectProvider<PeerRequests> peerRequests,
      ObjectProvider<ViewSerdes> serdes,
      ObjectProvider<MatviewProperties> properties) {
    FilterRegistrationBean<FirstRequestFilter> registration =
        FirstRequestFilter.registration(
            () ->
                new PeerRequestFilter(
                    properties.getObject().getWeb().basePathWithoutTrailingSlash(),
                    peerRequests.getObject(),
                    serdes.getObject().mapper()));
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
    return registration;
  }

  @Bean
  @ConditionalOnMissingBean
  ProblemResolver matviewProblemResolver(ViewSerdes serdes, MatviewProperties properties) {
    return new ProblemResolver(properties.getWeb().basePathWithoutTrailingSlash(), serdes.mapper());
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewProblemErrorPageFilter")
  FilterRegistrationBean<FirstRequestFilter> matviewProblemErrorPageFilter(
      ObjectProvider<ViewSerdes> serdes, ObjectProvider<MatviewProperties> properties) {
    return FirstRequestFilter.errorDispatch(
        () ->
            new ProblemErrorPageFilter(
                properties.getObject().getWeb().basePathWithoutTrailingSlash(),
                serdes.getObject().mapper()));
  }

  /** The limits of requests to the lookup endpoints that {@code properties} set. */
  static RequestLimits requestLimits(MatviewProperties properties) {
    DataSize maxBatchBody = properties.getWeb().getMaxBatchBody();
    if (maxBatchBody.toBytes() < 1) {
      throw InvalidMatviewPropertyException.atLeast(
          "matview.web.max-batch-body", maxBatchBody, "1B", "2MB");
    }
    DataSize maxKeyLength = properties.getWeb().getMaxKeyLength();
    if (maxKeyLength.toBytes() < 1 || maxKeyLength.toBytes() > Integer.MAX_VALUE) {
      throw InvalidMatviewPropertyException.outside(
          "matview.web.max-key-length", maxKeyLength, "between 1B and 2GB", "1KB");
    }
    return new RequestLimits(maxBatchBody, maxKeyLength);
  }

  /** Answers Tomcat's own errors, those no servlet sees, as problem details. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({Tomcat.class, ConfigurableTomcatWebServerFactory.class})
  @ConditionalOnBooleanProperty(name = "matview.web.server-problem-details", matchIfMissing = true)
  static class TomcatProblemDetailsConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ProblemErrorReportValveCustomizer matviewProblemErrorReportValveCustomizer(
        MatviewProperties properties) {
      return new ProblemErrorReportValveCustomizer(
          properties.getWeb().basePathWithoutTrailingSlash());
    }
  }

  /** On Jetty: its own errors as problem details, and TRACE refused as Tomcat refuses it. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({Server.class, ConfigurableJettyWebServerFactory.class})
  static class JettyConfiguration {

    @Bean
    WebServerFactoryCustomizer<ConfigurableJettyWebServerFactory> matviewJettyTraceRefusal() {
      return (factory) -> factory.addServerCustomizers(JettyServerCustomizers.traceRefusal());
    }

    @Bean
    @ConditionalOnBooleanProperty(
        name = "matview.web.server-problem-details",
        matchIfMissing = true)
    WebServerFactoryCustomizer<ConfigurableJettyWebServerFactory> matviewJettyProblemErrors(
        MatviewProperties properties, Environment environment) {
      String lookupPath = LookupBaseUrl.path(properties.getWeb(), environment);
      return (factory) ->
          factory.addServerCustomizers(JettyServerCustomizers.problemErrors(lookupPath));
    }
  }
}
