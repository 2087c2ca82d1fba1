package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.matview.dashboard.ActuatorPrivilege;
import dev.matview.dashboard.DashboardAccess;
import dev.matview.dashboard.DashboardController;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.Views;
import jakarta.servlet.Filter;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.WebInvocationPrivilegeEvaluator;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.DefaultMockMvcBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/** Tests for {@link MatviewDashboardAutoConfiguration}. */
class MatviewDashboardAutoConfigurationTests {

  private final WebApplicationContextRunner contextRunner =
      new WebApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  MatviewDashboardAutoConfiguration.class,
                  EndpointAutoConfiguration.class,
                  WebEndpointAutoConfiguration.class,
                  DispatcherServletAutoConfiguration.class,
                  WebMvcAutoConfiguration.class,
                  HttpMessageConvertersAutoConfiguration.class))
          .withUserConfiguration(ViewConfiguration.class)
          .withPropertyValues("management.endpoints.web.exposure.include=health,matviews");

  @Test
  void servesThePageToldWhereTheEndpointIsWithoutSpringSecurity() {
    this.contextRunner.run(
        (context) -> {
          assertThat(context).getBean(DashboardAccess.class).isSameAs(DashboardAccess.OPEN);
          request(context, "/matview", null)
              .andExpect(status().isOk())
              .andExpect(content().string(containsString("data-endpoint=\"/actuator/matviews\"")));
        });
  }

  @Test
  void followsTheEndpointsBasePathAndPathMapping() {
    this.contextRunner
        .withPropertyValues(
            "management.endpoints.web.base-path=/manage",
            "management.endpoints.web.path-mapping.matviews=views-state")
        .run(
            (context) ->
                request(context, "/matview", null)
                    .andExpect(
                        content().string(containsString("data-endpoint=\"/manage/views-state\""))));
  }

  @Test
  void tellsThePageWhenTheEndpointIsNotExposedOrOnAnotherPort() {
    for (String property :
        List.of("management.endpoints.web.exposure.include=health", "management.server.port=0")) {
      this.contextRunner
          .withPropertyValues(property)
          .run(
              (context) ->
                  request(context, "/matview", null)
                      .andExpect(content().string(containsString("data-endpoint=\"\""))));
    }
  }

  @Test
  void servesThePageWithoutTheActuatorSayingHowToAddIt() {
    new WebApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                MatviewDashboardAutoConfiguration.class,
                DispatcherServletAutoConfiguration.class,
                WebMvcAutoConfiguration.class,
                HttpMessageConvertersAutoConfiguration.class))
        .withUserConfiguration(ViewConfiguration.class)
        .withClassLoader(new FilteredClassLoader(PathMappedEndpoints.class))
        .run(
            (context) ->
                request(context, "/matview", null)
                    .andExpect(status().isOk())
                    .andExpect(content().string(containsString("data-endpoint=\"\""))));
  }

  @Test
  void answers404WhenTurnedOff() {
    this.contextRunner
        .withPropertyValues("matview.dashboard.enabled=false")
        .run(
            (context) -> {
              assertThat(context).doesNotHaveBean(DashboardController.class);
              request(context, "/matview", null).andExpect(status().isNotFound());
            });
  }

  @Test
  void backsOffOutsideAServletWebApplicationAndWithoutViews() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(MatviewDashboardAutoConfiguration.class))
        .withUserConfiguration(ViewConfiguration.class)
        .run((context) -> assertThat(context).doesNotHaveBean(DashboardController.class));
    new WebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(MatviewDashboardAutoConfiguration.class))
        .run((context) -> assertThat(context).doesNotHaveBean(DashboardController.class));
  }

  @Test
  void showsThePageOnlyToThoseWhoMayReadTheEndpointWhereSpringSecurityGuardsIt() {
    this.contextRunner
        .withUserConfiguration(SecurityConfiguration.class)
        .run(
            (context) -> {
              assertThat(context)
                  .getBean(DashboardAccess.class)
                  .isInstanceOf(ActuatorPrivilege.class);
              request(context, "/matview", null)
                  .andExpect(status().isUnauthorized())
                  .andExpect(header().exists("WWW-Authenticate"));
              request(context, "/matview/dashboard.js", "shopper")
                  .andExpect(status().isForbidden());
              request(context, "/matview", "shopper").andExpect(status().isForbidden());
              request(context, "/matview", "operator").andExpect(status().isOk());
              request(context, "/matview/dashboard.css", "operator").andExpect(status().isOk());
            });
  }

  @Test
  void isOpenWithSpringSecurityOnTheClassPathButNotInUse() {
    this.contextRunner.run(
        (context) -> {
          assertThat(context).doesNotHaveBean(WebInvocationPrivilegeEvaluator.class);
          request(context, "/matview", null).andExpect(status().isOk());
        });
  }

  @Test
  void backsOffWhenTheUserDefinesTheAccess() {
    this.contextRunner
        .withBean("userAccess", DashboardAccess.class, () -> (request) -> {})
        .withUserConfiguration(SecurityConfiguration.class)
        .run(
            (context) -> {
              assertThat(context)
                  .getBean(DashboardAccess.class)
                  .isSameAs(context.getBean("userAccess"));
              request(context, "/matview", null).andExpect(status().isOk());
            });
  }

  /** {@code GET path} on the context's MockMvc, as {@code user} with HTTP basic or anonymously. */
  private static ResultActions request(
      WebApplicationContext context, String path, @Nullable String user) throws Exception {
    DefaultMockMvcBuilder builder = MockMvcBuilders.webAppContextSetup(context);
    if (context.containsBean("springSecurityFilterChain")) {
      builder.addFilters(context.getBean("springSecurityFilterChain", Filter.class));
    }
    MockMvc mvc = builder.build();
    MockHttpServletRequestBuilder request = get(path);
    if (user != null) {
      String credentials = user + ":secret";
      request.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
    }
    return mvc.perform(request);
  }

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(MatviewProperties.class)
  static class ViewConfiguration {

    @Bean
    ViewRegistry viewRegistry() {
      return ViewRegistry.of(
          Map.of("sales", Views.from("sales", Sale.class).count()),
          new ViewSerdes(JsonMapper.builder().build()),
          "app");
    }

    @Bean
    MatviewsStandIn matviewsStandIn() {
      return new MatviewsStandIn();
    }
  }

  /** Stands in for the endpoint, whose path is all the dashboard needs of it. */
  @Endpoint(id = "matviews")
  static class MatviewsStandIn {

    @ReadOperation
    Map<String, String> matviews() {
      return Map.of();
    }
  }

  /** Operators may read the actuator; everyone else is only signed in. */
  @Configuration(proxyBeanMethods = false)
  @EnableWebSecurity
  static class SecurityConfiguration {

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
      return http.authorizeHttpRequests(
              (requests) ->
                  requests.requestMatchers("/actuator/**").hasRole("OPS").anyRequest().permitAll())
          .httpBasic(Customizer.withDefaults())
          .build();
    }

    @Bean
    UserDetailsService users() {
      return new InMemoryUserDetailsManager(
          User.withUsername("operator").password("{noop}secret").roles("OPS").build(),
          User.withUsername("shopper").password("{noop}secret").roles("SHOP").build());
    }
  }

  record Sale(String shop) {}
}
