package dev.matview.devbroker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;

class DevBrokerAutoConfigurationTests {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  DevBrokerAutoConfiguration.class, KafkaAutoConfiguration.class));

  @TempDir Path dir;

  @Test
  void startsNoBrokerWithoutTheProperty() {
    this.runner.run(
        context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(DevBroker.class);
          assertThat(context.getBean(KafkaConnectionDetails.class).getBootstrapServers())
              .containsExactly("localhost:9092");
        });
  }

  @Test
  void startsNoBrokerWhenThePropertyIsFalse() {
    this.runner
        .withPropertyValues("matview.dev-broker.enabled=false")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DevBroker.class));
  }

  @Test
  void backsOffWhenTheApplicationDeclaresItsOwnConnectionDetails() {
    this.runner
        .withPropertyValues("matview.dev-broker.enabled=true")
        .withUserConfiguration(OwnConnectionDetails.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed().doesNotHaveBean(DevBroker.class);
              assertThat(context.getBean(KafkaConnectionDetails.class).getBootstrapServers())
                  .containsExactly("kafka.example:9092");
            });
  }

  @Test
  void givesEveryKafkaClientTheAddressOfTheBrokerItStartedOverPlaintext() {
    this.runner
        .withPropertyValues(
            "matview.dev-broker.enabled=true",
            "matview.dev-broker.data-dir=" + this.dir.resolve("kafka"),
            "spring.kafka.bootstrap-servers=127.0.0.1:1",
            "spring.kafka.security.protocol=SSL")
        .run(
            context -> {
              assertThat(context).hasNotFailed().hasSingleBean(KafkaConnectionDetails.class);
              DevBroker broker = context.getBean(DevBroker.class);
              assertThat(context.getBean(KafkaConnectionDetails.class)).isSameAs(broker);
              List<String> address = broker.getBootstrapServers();
              assertThat(address).singleElement().asString().startsWith("127.0.0.1:");
              assertThat(context.getBean(KafkaAdmin.class).getConfigurationProperties())
                  .containsEntry("bootstrap.servers", address)
                  .containsEntry("security.protocol", "PLAINTEXT");
              assertThat(
                      context
                          .getBean(DefaultKafkaProducerFactory.class)
                          .getConfigurationProperties())
                  .containsEntry("bootstrap.servers", address);
            });
  }

  @Test
  void keepsItsDataInTheBuildFolderForTheNextStartByDefault() {
    Path expected = Path.of("target", "matview-dev-broker").toAbsolutePath();
    this.runner
        .withPropertyValues("matview.dev-broker.enabled=true")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(DevBroker.class).dataDir()).isEqualTo(expected);
            });
    assertThat(expected.resolve("meta.properties")).isRegularFile();
  }

  @Test
  void startsEmptyInANewDirectoryOfTheBuildFolderThatItDeletesWhenDataIsNotKept() {
    Path[] used = new Path[1];
    this.runner
        .withPropertyValues("matview.dev-broker.enabled=true", "matview.dev-broker.keep-data=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              used[0] = context.getBean(DevBroker.class).dataDir();
              assertThat(used[0].getParent()).isEqualTo(Path.of("target").toAbsolutePath());
              assertThat(used[0].getFileName().toString()).startsWith("matview-dev-broker-");
              assertThat(used[0].resolve("meta.properties")).isRegularFile();
            });
    assertThat(Files.exists(used[0])).as("%s after the context closed", used[0]).isFalse();
  }

  @Test
  void refusesAPortOutOfRangeNamingTheProperty() {
    this.runner
        .withPropertyValues("matview.dev-broker.enabled=true", "matview.dev-broker.port=70000")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining("matview.dev-broker.port")
                    .hasMessageContaining("between 1 and 65535"));
  }

  @Test
  void failsClearlyWhenAnotherBrokerUsesItsDataDirectory() {
    Path shared = this.dir.resolve("shared");
    try (DevBroker running = DevBroker.start(0, shared, true)) {
      this.runner
          .withPropertyValues(
              "matview.dev-broker.enabled=true", "matview.dev-broker.data-dir=" + shared)
          .run(
              context ->
                  assertThat(context)
                      .getFailure()
                      .hasStackTraceContaining(
                          "Matview's development broker did not start on 127.0.0.1:")
                      .hasStackTraceContaining(
                          "with its data in "
                              + shared
                              + ": Another Kafka broker uses the log dir "
                              + shared)
                      .hasStackTraceContaining(
                          "set matview.dev-broker.port or"
                              + " matview.dev-broker.data-dir to another one"));
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnConnectionDetails {

    @Bean
    KafkaConnectionDetails ownKafka() {
      return () -> List.of("kafka.example:9092");
    }
  }
}
