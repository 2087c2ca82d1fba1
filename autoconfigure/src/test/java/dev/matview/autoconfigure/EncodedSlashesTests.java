package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

/** Tests for {@link EncodedSlashes} and the configuration that applies it. */
class EncodedSlashesTests {

  private final WebApplicationContextRunner contextRunner =
      new WebApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  MatviewAutoConfiguration.class,
                  MatviewWebAutoConfiguration.class,
                  KafkaAutoConfiguration.class))
          .withUserConfiguration(MatviewWebAutoConfigurationTests.ViewConfiguration.class)
          .withPropertyValues(
              "spring.kafka.streams.application-id=matview-test",
              "spring.kafka.streams.auto-startup=false");

  @Test
  void passesAnEncodedSlashThroughAConnectorThatWouldRefuseIt() {
    Connector connector = new Connector();
    assertThat(connector.getEncodedSolidusHandling()).isEqualTo("reject");
    EncodedSlashes.passThrough(connector);
    assertThat(connector.getEncodedSolidusHandling()).isEqualTo("passthrough");
  }

  @Test
  void keepsTheHandlingOfAnEncodedSlashTheUserChose() {
    Connector connector = new Connector();
    connector.setEncodedSolidusHandling("decode");
    EncodedSlashes.passThrough(connector);
    assertThat(connector.getEncodedSolidusHandling()).isEqualTo("decode");
  }

  @Test
  void customizesTheServerUnlessEncodedSlashesAreDisabled() {
    this.contextRunner.run((context) -> assertThat(context).hasBean("matviewTomcatEncodedSlashes"));
    this.contextRunner
        .withPropertyValues("matview.web.encoded-slashes=false")
        .run((context) -> assertThat(context).doesNotHaveBean("matviewTomcatEncodedSlashes"));
  }
}
