package dev.matview.autoconfigure;

import dev.matview.peer.PeerRequests;
import dev.matview.query.ViewBatchService;
import dev.matview.query.ViewQueryService;
import dev.matview.query.ViewScanService;
import dev.matview.web.PeerOnlyProblemHandler;
import dev.matview.web.PeerRequestFilter;
import dev.matview.web.ViewController;
import dev.matview.web.ViewProblemHandler;
import dev.matview.web.ViewScanController;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.DispatcherServlet;

/** Registers the HTTP endpoints that serve view lookups. */
@AutoConfiguration(after = MatviewAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBean(ViewQueryService.class)
@ConditionalOnBooleanProperty(name = "matview.web.enabled", matchIfMissing = true)
public final class MatviewWebAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ViewController matviewViewController(
      ViewQueryService queryService, ViewBatchService batchService) {
    return new ViewController(queryService, batchService);
  }

  @Bean
  @ConditionalOnMissingBean
  ViewScanController matviewViewScanController(ViewScanService scanService) {
    return new ViewScanController(scanService);
  }

  @Bean
  @ConditionalOnMissingBean
  ViewProblemHandler matviewViewProblemHandler() {
    return new ViewProblemHandler();
  }

  @Bean
  @ConditionalOnMissingBean
  PeerOnlyProblemHandler matviewPeerOnlyProblemHandler() {
    return new PeerOnlyProblemHandler();
  }

  @Bean
  @ConditionalOnBean(PeerRequests.class)
  @ConditionalOnMissingBean(name = "matviewPeerRequestFilter")
  FilterRegistrationBean<PeerRequestFilter> matviewPeerRequestFilter(
      PeerRequests peerRequests, MatviewProperties properties) {
    String basePath = properties.getWeb().getBasePath();
    FilterRegistrationBean<PeerRequestFilter> registration =
        new FilterRegistrationBean<>(new PeerRequestFilter(peerRequests));
    registration.addUrlPatterns(
        (basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath) + "/*");
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
    return registration;
  }
}
