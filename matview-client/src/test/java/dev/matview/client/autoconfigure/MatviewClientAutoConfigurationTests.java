package dev.matview.client.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.client.Consistency;
import dev.matview.client.MatviewClient;
import dev.matview.client.StubServer;
import dev.matview.client.StubServer.Reply;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/** Tests for {@link MatviewClientAutoConfiguration}. */
class MatviewClientAutoConfigurationTests {

  private final StubServer server = StubServer.start();

  private final ApplicationContextRunner contextRunner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(MatviewClientAutoConfiguration.class));

  @AfterEach
  void stopServer() {
    this.server.close();
  }

  @Test
  void createsNoClientWithoutABaseUrl() {
    this.contextRunner.run(context -> assertThat(context).doesNotHaveBean(MatviewClient.class));
  }

  @Test
  void bindsDefaults() {
    this.contextRunner
        .withPropertyValues("matview.client.base-url=" + this.server.baseUrl())
        .run(
            context -> {
              MatviewClientProperties properties = context.getBean(MatviewClientProperties.class);
              assertThat(properties.getBaseUrl()).isEqualTo(this.server.baseUrl());
              assertThat(properties.getBasePath()).isEqualTo("/views");
              assertThat(properties.getDeadline()).isEqualTo(Duration.ofSeconds(10));
              assertThat(properties.getConsistency()).isEqualTo(Consistency.MONOTONIC);
              assertThat(properties.getPageSize()).isEqualTo(100);
            });
  }

  @Test
  void createsAClientOfTheServiceBelowItsBasePath() {
    this.server.always(value().with("Matview-Position", "p-1"));
    this.contextRunner
        .withPropertyValues(
            "matview.client.base-url=" + this.server.baseUrl(),
            "matview.client.base-path=/api/views")
        .run(
            context -> {
              MatviewClient client = context.getBean(MatviewClient.class);
              assertThat(client.view("orders", String.class, Long.class).get("alice")).contains(5L);
              assertThat(this.server.lastRequest().rawPath()).isEqualTo("/api/views/orders/key");
              assertThat(client.position("orders")).contains("p-1");
            });
  }

  @Test
  void sendsNoPositionWhenConsistencyIsNone() {
    this.server.always(value().with("Matview-Position", "p-1"));
    this.contextRunner
        .withPropertyValues(
            "matview.client.base-url=" + this.server.baseUrl(), "matview.client.consistency=none")
        .run(
            context -> {
              MatviewClient client = context.getBean(MatviewClient.class);
              client.view("orders", String.class, Long.class).get("alice");
              client.view("orders", String.class, Long.class).get("alice");
              assertThat(this.server.lastRequest().header("Matview-Position")).isNull();
              assertThat(client.position("orders")).isEmpty();
            });
  }

  @Test
  void buildsOnTheApplicationsRestClientBuilder() {
    this.server.always(value());
    this.contextRunner
        .withUserConfiguration(RestClientBuilderConfiguration.class)
        .withPropertyValues("matview.client.base-url=" + this.server.baseUrl())
        .run(
            context -> {
              context
                  .getBean(MatviewClient.class)
                  .view("orders", String.class, Long.class)
                  .get("a");
              assertThat(this.server.lastRequest().header("X-Caller")).isEqualTo("billing");
            });
  }

  @Test
  void backsOffWhenTheApplicationDefinesItsOwnClient() {
    this.contextRunner
        .withUserConfiguration(UserClientConfiguration.class)
        .withPropertyValues("matview.client.base-url=" + this.server.baseUrl())
        .run(
            context ->
                assertThat(context.getBean(MatviewClient.class))
                    .isSameAs(context.getBean(UserClientConfiguration.class).client));
  }

  @Test
  void failsNamingThePropertyWhenTheDeadlineIsNotPositive() {
    this.contextRunner
        .withPropertyValues(
            "matview.client.base-url=" + this.server.baseUrl(), "matview.client.deadline=0s")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining("matview.client.deadline"));
  }

  @Test
  void failsNamingThePropertyWhenThePageSizeIsNotPositive() {
    this.contextRunner
        .withPropertyValues(
            "matview.client.base-url=" + this.server.baseUrl(), "matview.client.page-size=0")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining("matview.client.page-size"));
  }

  private static Reply value() {
    return Reply.json(200, "{\"key\": \"alice\", \"value\": 5}");
  }

  @Configuration(proxyBeanMethods = false)
  static class RestClientBuilderConfiguration {

    @Bean
    RestClient.Builder restClientBuilder() {
      return RestClient.builder().defaultHeader("X-Caller", "billing");
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserClientConfiguration {

    final MatviewClient client = MatviewClient.create("http://localhost:1");

    @Bean
    MatviewClient userMatviewClient() {
      return this.client;
    }
  }
}
