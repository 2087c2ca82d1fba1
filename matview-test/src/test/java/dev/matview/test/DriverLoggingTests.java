package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;

class DriverLoggingTests {

  private final LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());

  private @Nullable LogLevel before;

  @BeforeEach
  void rememberKafkasLevel() {
    this.before = this.logging.getLoggerConfiguration("org.apache.kafka").getConfiguredLevel();
  }

  @AfterEach
  void restoreKafkasLevel() {
    this.logging.setLogLevel("org.apache.kafka", this.before);
  }

  @Test
  void setsKafkaToWarnWhenTheTestsLoggingGivesItNoLevel() {
    this.logging.setLogLevel("org.apache.kafka", null);

    DriverLogging.quietKafka();

    assertThat(configuredLevel()).isEqualTo(LogLevel.WARN);
  }

  @Test
  void keepsTheLevelTheTestsLoggingGivesKafka() {
    this.logging.setLogLevel("org.apache.kafka", LogLevel.DEBUG);

    DriverLogging.quietKafka();

    assertThat(configuredLevel()).isEqualTo(LogLevel.DEBUG);
  }

  private @Nullable LogLevel configuredLevel() {
    return this.logging.getLoggerConfiguration("org.apache.kafka").getConfiguredLevel();
  }
}
