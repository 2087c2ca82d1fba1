package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import dev.matview.query.routing.LocalInstance;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * Tests that {@link MatviewAutoConfiguration} sets Kafka Streams' {@code application.server} from
 * the web server's port in a web application.
 */
class MatviewApplicationServerTests {

  private final WebApplicationContextRunner contextRunner =
      new WebApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(MatviewAutoConfiguration.class, KafkaAutoConfiguration.class))
          .withUserConfiguration(ViewConfiguration.class)
          .withPropertyValues(
              "spring.kafka.streams.application-id=matview-test",
              "spring.kafka.streams.auto-startup=false");

  @Test
  void setsTheApplicationServerToTheAdvertisedHostAndTheWebServersPort() {
    this.contextRunner
        .withPropertyValues("matview.advertised-host=matview-1.internal")
        .run(
            (context) -> {
              context.publishEvent(webServerInitialized(8123, null));
              assertThat(streamsConfiguration(context))
                  .containsEntry(
                      StreamsConfig.APPLICATION_SERVER_CONFIG, "matview-1.internal:8123");
              assertThat(context.getBean(LocalInstance.class).describe())
                  .isEqualTo("matview-1.internal:8123");
            });
  }

  @Test
  void setsTheApplicationServerToThisHostsNameByDefault() {
    this.contextRunner.run(
        (context) -> {
          context.publishEvent(webServerInitialized(8123, null));
          assertThat(
                  streamsConfiguration(context)
                      .getProperty(StreamsConfig.APPLICATION_SERVER_CONFIG))
              .isNotBlank()
              .endsWith(":8123");
        });
  }

  @Test
  void keepsAnApplicationServerTheUserConfigured() {
    this.contextRunner
        .withPropertyValues(
            "spring.kafka.streams.properties.application.server=streams-1.internal:9000")
        .run(
            (context) -> {
              context.publishEvent(webServerInitialized(8123, null));
              assertThat(streamsConfiguration(context))
                  .containsEntry(
                      StreamsConfig.APPLICATION_SERVER_CONFIG, "streams-1.internal:9000");
              assertThat(context.getBean(LocalInstance.class).describe())
                  .isEqualTo("streams-1.internal:9000");
            });
  }

  @Test
  void ignoresTheManagementServer() {
    this.contextRunner.run(
        (context) -> {
          context.publishEvent(webServerInitialized(9090, "management"));
          assertThat(streamsConfiguration(context))
              .doesNotContainKey(StreamsConfig.APPLICATION_SERVER_CONFIG);
          assertThat(context.getBean(LocalInstance.class).hostInfo()).isNull();
        });
  }

  private static Properties streamsConfiguration(AssertableWebApplicationContext context) {
    Properties configuration =
        context
            .getBean(
                "&" + KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME,
                StreamsBuilderFactoryBean.class)
            .getStreamsConfiguration();
    assertThat(configuration).isNotNull();
    return configuration;
  }

  private static WebServerInitializedEvent webServerInitialized(
      int port, @Nullable String serverNamespace) {
    WebServer webServer = mock(WebServer.class);
    given(webServer.getPort()).willReturn(port);
    WebServerApplicationContext serverContext = mock(WebServerApplicationContext.class);
    given(serverContext.getServerNamespace()).willReturn(serverNamespace);
    return new WebServerInitializedEvent(webServer) {

      @Override
      public WebServerApplicationContext getApplicationContext() {
        return serverContext;
      }
    };
  }

  record Sale(String shop, long amount) {}

  @Configuration(proxyBeanMethods = false)
  static class ViewConfiguration {

    @MaterializedView("sales-per-shop")
    ViewDefinition<String, Sale, Long> salesPerShop() {
      return Views.from("sales", Sale.class).groupBy(String.class, Sale::shop).count();
    }
  }
}
