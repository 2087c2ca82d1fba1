package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.mock.env.MockEnvironment;

class KafkaLoggingDefaultsTests {

  private final KafkaLoggingDefaults defaults = new KafkaLoggingDefaults();

  @Test
  void setsKafkaToWarnInTheApplicationOfASliceTest() {
    MockEnvironment environment =
        new MockEnvironment().withProperty(KafkaLoggingDefaults.MARKER, "true");

    this.defaults.postProcessEnvironment(environment, new SpringApplication());

    assertThat(environment.getProperty("logging.level.org.apache.kafka")).isEqualTo("warn");
    assertThat(environment.getProperty("logging.level.kafka")).isEqualTo("warn");
    assertThat(environment.getProperty("logging.level.state.change.logger")).isEqualTo("warn");
    assertThat(environment.getProperty("logging.level.dev.matview.kafka.ComposingKafkaStreams"))
        .isEqualTo("warn");
  }

  @Test
  void givesWayToALevelSetAnywhereElse() {
    MockEnvironment environment =
        new MockEnvironment().withProperty(KafkaLoggingDefaults.MARKER, "true");
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
  void leavesOtherApplicationsAlone() {
    MockEnvironment environment = new MockEnvironment();

    this.defaults.postProcessEnvironment(environment, new SpringApplication());

    assertThat(environment.getProperty("logging.level.org.apache.kafka")).isNull();
  }
}
