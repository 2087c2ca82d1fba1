package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggerConfiguration;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.mock.env.MockEnvironment;

class KafkaLoggingDefaultsTests {

  private final KafkaLoggingDefaults defaults = new KafkaLoggingDefaults();

  @Test
  void setsKafkasLoggersToWarnByDefault() {
    MockEnvironment environment = new MockEnvironment();

    this.defaults.postProcessEnvironment(environment, new SpringApplication());

    assertThat(environment.getProperty("logging.level.org.apache.kafka")).isEqualTo("warn");
    assertThat(environment.getProperty("logging.level.kafka")).isEqualTo("warn");
    assertThat(environment.getProperty("logging.level.state.change.logger")).isEqualTo("warn");
    assertThat(environment.getProperty("logging.level.dev.matview.kafka.ComposingKafkaStreams"))
        .isEqualTo("warn");
    assertThat(environment.getPropertySources().stream().reduce((first, second) -> second))
        .get()
        .extracting(source -> source.getName())
        .isEqualTo(KafkaLoggingDefaults.SOURCE_NAME);
  }

  @Test
  void givesWayToALevelSetAnywhereElse() {
    MockEnvironment environment = new MockEnvironment();
    environment
        .getPropertySources()
        .addLast(
            new MapPropertySource(
                "application.yml", Map.of("logging.level.org.apache.kafka", "info")));

    this.defaults.postProcessEnvironment(environment, new SpringApplication());

    assertThat(environment.getProperty("logging.level.org.apache.kafka")).isEqualTo("info");
    assertThat(environment.getProperty("logging.level.kafka")).isEqualTo("warn");
  }

  @Test
  void leavesKafkasLoggersAloneWhenAskedForVerboseLogging() {
    MockEnvironment environment =
        new MockEnvironment().withProperty("matview.logging.kafka", "verbose");

    this.defaults.postProcessEnvironment(environment, new SpringApplication());

    assertThat(environment.getProperty("logging.level.org.apache.kafka")).isNull();
    assertThat(environment.getPropertySources().contains(KafkaLoggingDefaults.SOURCE_NAME))
        .isFalse();
  }

  @Test
  void readsThePropertyInAnyOfBootsRelaxedForms() {
    MockEnvironment environment = new MockEnvironment();
    environment
        .getPropertySources()
        .addFirst(
            new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                Map.of("MATVIEW_LOGGING_KAFKA", "VERBOSE")));

    this.defaults.postProcessEnvironment(environment, new SpringApplication());

    assertThat(environment.getProperty("logging.level.org.apache.kafka")).isNull();
  }

  @Test
  void addsItsLevelsOnce() {
    MockEnvironment environment = new MockEnvironment();

    this.defaults.postProcessEnvironment(environment, new SpringApplication());
    this.defaults.postProcessEnvironment(environment, new SpringApplication());

    assertThat(
            environment.getPropertySources().stream()
                .filter(source -> source.getName().equals(KafkaLoggingDefaults.SOURCE_NAME)))
        .hasSize(1);
  }

  @Test
  void setsTheLevelsOfEveryApplicationBeforeItsLoggingStarts() {
    try (ConfigurableApplicationContext context =
        new SpringApplicationBuilder(NoBeans.class)
            .web(WebApplicationType.NONE)
            .logStartupInfo(false)
            .run("--logging.level.kafka=error")) {
      LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
      assertThat(logging.getLoggerConfiguration("org.apache.kafka"))
          .extracting(LoggerConfiguration::getEffectiveLevel)
          .isEqualTo(LogLevel.WARN);
      assertThat(logging.getLoggerConfiguration("kafka"))
          .extracting(LoggerConfiguration::getEffectiveLevel)
          .isEqualTo(LogLevel.ERROR);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class NoBeans {}
}
