package dev.matview.autoconfigure;

import dev.matview.dashboard.ActuatorPrivilege;
import dev.matview.dashboard.DashboardAccess;
import dev.matview.dashboard.DashboardController;
import dev.matview.dashboard.DashboardPage;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.web.ProblemErrorPageFilter;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.security.web.access.WebInvocationPrivilegeEvaluator;
import org.springframework.web.servlet.DispatcherServlet;
import tools.jackson.databind.json.JsonMapper;

/** The dashboard at {@code /matview}, shown to those who may read the {@code matviews} endpoint. */
@AutoConfiguration(after = {MatviewAutoConfiguration.class, MatviewEndpointAutoConfiguration.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBean(ViewRegistry.class)
@ConditionalOnBooleanProperty(name = "matview.dashboard.enabled", matchIfMissing = true)
public final class MatviewDashboardAutoConfiguration {

  private static final String MATVIEWS = "matviews";

  @Bean
  @ConditionalOnMissingBean
  DashboardController matviewDashboardController(
      ObjectProvider<DashboardPage> page, ObjectProvider<DashboardAccess> access) {
    return new DashboardController(
        page.getIfAvailable(() -> new DashboardPage(null)),
        access.getIfAvailable(() -> DashboardAccess.OPEN));
  }

  /** The container's errors for the dashboard's paths as problem details, not a 500. */
  @Bean
  @ConditionalOnMissingBean(name = "matviewDashboardProblemErrorPageFilter")
  FilterRegistrationBean<FirstRequestFilter> matviewDashboardProblemErrorPageFilter(
      ObjectProvider<ViewSerdes> serdes) {
    return FirstRequestFilter.errorDispatch(
        () ->
            new ProblemErrorPageFilter(
                DashboardController.PATH,
                serdes
                    .getIfAvailable(() -> new ViewSerdes(JsonMapper.builder().build()))
                    .mapper()));
  }

  /** The page, told where the endpoint is when the actuator serves it on the application's port. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({PathMappedEndpoints.class, ManagementPortType.class})
  static class ActuatorConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DashboardPage matviewDashboardPage(
        ObjectProvider<PathMappedEndpoints> endpoints, Environment environment) {
      PathMappedEndpoints paths = endpoints.getIfAvailable();
      boolean samePort = ManagementPortType.get(environment) != ManagementPortType.DIFFERENT;
      return new DashboardPage(
          (paths != null && samePort) ? paths.getPath(EndpointId.of(MATVIEWS)) : null);
    }
  }

  /** The access of Spring Security's users to the endpoint, where the application has it. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({WebInvocationPrivilegeEvaluator.class, PathMappedEndpoints.class})
  static class SecurityConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DashboardAccess matviewDashboardAccess(
        ObjectProvider<WebInvocationPrivilegeEvaluator> evaluator,
        ObjectProvider<PathMappedEndpoints> endpoints) {
      WebInvocationPrivilegeEvaluator privileges = evaluator.getIfAvailable();
      PathMappedEndpoints paths = endpoints.getIfAvailable();
      if (privileges == null || paths == null) {
        return DashboardAccess.OPEN;
      }
      return new ActuatorPrivilege(privileges, endpointPath(paths));
    }

    /** The endpoint's path, or where it would be when it is not exposed over HTTP. */
    private static String endpointPath(PathMappedEndpoints paths) {
      @Nullable String path = paths.getPath(EndpointId.of(MATVIEWS));
      return (path != null) ? path : paths.getBasePath() + "/" + MATVIEWS;
    }
  }
}
