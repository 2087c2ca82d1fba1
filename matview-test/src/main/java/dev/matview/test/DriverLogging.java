package dev.matview.test;

import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggerConfiguration;
import org.springframework.boot.logging.LoggingSystem;

/**
 * Quiets Kafka for a {@link ViewTestDriver}, whose Kafka Streams would log at INFO as each driver
 * opens and closes its stores (each store, each task's start and close): the logger {@code
 * org.apache.kafka} is set to WARN, unless the test's logging configuration gives it a level of its
 * own, such as {@code <logger name="org.apache.kafka" level="INFO"/>} in a {@code
 * logback-test.xml}.
 */
final class DriverLogging {

  private static final String KAFKA = "org.apache.kafka";

  private DriverLogging() {}

  /** Sets Kafka's logger to WARN unless a level is configured for it. */
  static void quietKafka() {
    LoggingSystem logging = LoggingSystem.get(DriverLogging.class.getClassLoader());
    LoggerConfiguration kafka = logging.getLoggerConfiguration(KAFKA);
    if (kafka == null || kafka.getConfiguredLevel() == null) {
      logging.setLogLevel(KAFKA, LogLevel.WARN);
    }
  }
}
