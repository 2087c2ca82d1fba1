package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.peer.PeerRequests;
import dev.matview.peer.PeerTrust;
import dev.matview.query.peer.PeerClient;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import dev.matview.web.PeerRequestFilter;
import java.time.Duration;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.env.EnvironmentEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.env.EnvironmentEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** Tests for the wiring of the trust between instances in {@link MatviewAutoConfiguration}. */
class MatviewPeersAutoConfigurationTests {

  private static final String SECRET = "0123456789abcdefghijklmnopqrstuvwxyz";

  private final WebApplicationContextRunner contextRunner =
      new WebApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  MatviewAutoConfiguration.class,
                  MatviewWebAutoConfiguration.class,
                  KafkaAutoConfiguration.class))
          .withUserConfiguration(ViewConfiguration.class)
          .withPropertyValues(
              "spring.kafka.streams.application-id=peers-test",
              "spring.kafka.streams.auto-startup=false");

  @Test
  void bindsDefaults() {
    this.contextRunner.run(
        (context) -> {
          MatviewProperties properties = context.getBean(MatviewProperties.class);
          assertThat(properties.getPeers().getSecret()).isNull();
          assertThat(properties.getPeers().getAgreementTimeout()).isEqualTo(Duration.ofSeconds(30));
          assertThat(properties.getPeers().getSignatureValidity())
              .isEqualTo(Duration.ofSeconds(30));
          assertThat(properties.getForwarding().isTrustedNetwork()).isFalse();
        });
  }

  @Test
  void waitsForTheInstancesToAgreeOnASecretWhenNoneIsConfigured() {
    this.contextRunner.run(
        (context) -> {
          assertThat(context.getBean(PeerTrust.class).isEstablished()).isFalse();
          assertThat(context).hasSingleBean(PeerSecretEstablisher.class);
          assertThat(context).hasSingleBean(PeerRequests.class);
          assertThat(context).hasSingleBean(PeerClient.class);
        });
  }

  @Test
  void trustsAConfiguredSecretAtOnce() {
    this.contextRunner
        .withPropertyValues("matview.peers.secret=" + SECRET)
        .run(
            (context) -> {
              PeerTrust trust = context.getBean(PeerTrust.class);
              assertThat(trust.isEstablished()).isTrue();
              assertThat(trust.toString()).doesNotContain(SECRET);
              assertThat(context.getBean(PeerRequests.class).sign("GET", "/views", null, Map.of()))
                  .isNotNull();
            });
  }

  @Test
  void failsWhenTheSecretIsShorterThan32BytesWithoutShowingIt() {
    this.contextRunner
        .withPropertyValues("matview.peers.secret=too-short-a-secret")
        .run(
            (context) -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                  .hasMessageContaining("matview.peers.secret")
                  .hasMessageContaining("at least 32")
                  .hasMessageNotContaining("too-short-a-secret");
            });
  }

  @Test
  void failsWhenTheSignatureValidityIsNotPositive() {
    this.contextRunner
        .withPropertyValues("matview.peers.signature-validity=0s")
        .run(
            (context) ->
                assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("matview.peers.signature-validity"));
  }

  @Test
  void failsWhenTheAgreementTimeoutIsNotPositive() {
    this.contextRunner
        .withPropertyValues("matview.peers.agreement-timeout=-1s")
        .run(
            (context) ->
                assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("matview.peers.agreement-timeout"));
  }

  @Test
  void checksSignaturesOfRequestsUnderTheBasePath() {
    this.contextRunner
        .withPropertyValues("matview.web.base-path=/api/views/")
        .run(
            (context) -> {
              FilterRegistrationBean<?> filter =
                  context.getBean("matviewPeerRequestFilter", FilterRegistrationBean.class);
              assertThat(filter.getFilter())
                  .asInstanceOf(InstanceOfAssertFactories.type(FirstRequestFilter.class))
                  .extracting(FirstRequestFilter::filter)
                  .isInstanceOf(PeerRequestFilter.class);
              assertThat(filter.getUrlPatterns()).containsExactly("/*");
              assertThat(statusOf(filter, "/api/views/counts/keys/k")).isIn(403, 503);
              assertThat(statusOf(filter, "/api/views/../keys")).isIn(403, 503);
              assertThat(statusOf(filter, "/api/other")).isEqualTo(200);
            });
  }

  /** The status a request to {@code uri} with a forged signature gets from {@code filter}. */
  private static int statusOf(FilterRegistrationBean<?> filter, String uri) throws Exception {
    MockHttpServletRequest request = new MockHttpServletRequest("GET", uri);
    request.addHeader(PeerRequests.SIGNATURE_HEADER, "v2.1.none.AAAA");
    MockHttpServletResponse response = new MockHttpServletResponse();
    filter.getFilter().doFilter(request, response, new MockFilterChain());
    return response.getStatus();
  }

  @Test
  void keepsTheSecretOutOfTheActuatorEvenWhereItShowsValues() {
    this.contextRunner
        .withConfiguration(AutoConfigurations.of(EnvironmentEndpointAutoConfiguration.class))
        .withPropertyValues(
            "matview.peers.secret=" + SECRET,
            "management.endpoint.env.show-values=always",
            "management.endpoints.web.exposure.include=env")
        .run(
            (context) -> {
              EnvironmentEndpoint env = context.getBean(EnvironmentEndpoint.class);
              assertThat(env.environmentEntry("matview.peers.secret").getProperty().getValue())
                  .isEqualTo(SanitizableData.SANITIZED_VALUE);
              assertThat(
                      env.environmentEntry("spring.kafka.streams.application-id")
                          .getProperty()
                          .getValue())
                  .isEqualTo("peers-test");
              SanitizingFunction sanitizer =
                  context.getBean("matviewPeerSecretSanitizer", SanitizingFunction.class);
              assertThat(
                      sanitizer
                          .applyUnlessFiltered(
                              new SanitizableData(null, "MATVIEW_PEERS_SECRET", SECRET))
                          .getValue())
                  .isEqualTo(SanitizableData.SANITIZED_VALUE);
            });
  }

  record Visit(String page) {}

  @Configuration(proxyBeanMethods = false)
  static class ViewConfiguration {

    @MaterializedView("visits")
    ViewDefinition<String, Visit, Long> visits() {
      return Views.from("visits", Visit.class).count();
    }
  }
}
