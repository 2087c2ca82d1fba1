package dev.matview.autoconfigure;

import dev.matview.query.ViewQueryService;
import dev.matview.web.RequestObservationFilter;
import io.micrometer.observation.ObservationPredicate;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ListableBeanFactory;
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

/**
 * Observes Matview's reads, change streams and requests to other instances under each HTTP
 * request's observation, kept with the request right after Spring's server observation filter
 * opened it and before the peers' filter, so a signed peer request's trace context is read as any
 * caller's; without a tracer lookups are not observed ({@link UntracedLookups}).
 */
@AutoConfiguration(
    after = MatviewWebAutoConfiguration.class,
    afterName =
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({DispatcherServlet.class, ObservationRegistry.class})
@ConditionalOnBean({ObservationRegistry.class, ViewQueryService.class})
@ConditionalOnBooleanProperty(name = "matview.web.enabled", matchIfMissing = true)
public final class MatviewObservationAutoConfiguration {

  /** Right after Spring's server observation filter, before the peers' filter. */
  static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 2;

  @Bean
  @ConditionalOnMissingBean(name = "matviewRequestObservationFilter")
  FilterRegistrationBean<RequestObservationFilter> matviewRequestObservationFilter(
      ObservationRegistry registry) {
    FilterRegistrationBean<RequestObservationFilter> registration =
        new FilterRegistrationBean<>(new RequestObservationFilter(registry));
    registration.addUrlPatterns("/*");
    registration.setOrder(ORDER);
    return registration;
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewUntracedLookups")
  ObservationPredicate matviewUntracedLookups(ListableBeanFactory beans) {
    return new UntracedLookups(beans);
  }
}
