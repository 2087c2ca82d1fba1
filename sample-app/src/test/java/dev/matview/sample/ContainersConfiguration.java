package dev.matview.sample;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.testcontainers.kafka.KafkaContainer;

/**
 * Kafka in a container, as Spring Boot's service connection: every Kafka client of the app, Kafka
 * Streams and Matview's own included, connects to it, and the development broker that the sample's
 * {@code application.yml} enables stays off.
 */
@TestConfiguration(proxyBeanMethods = false)
public class ContainersConfiguration {

  /** The image, of the Kafka release that Spring Boot manages. */
  static final String IMAGE = "apache/kafka:4.1.2";

  @Bean
  @ServiceConnection
  KafkaContainer kafka() {
    return new KafkaContainer(IMAGE);
  }
}
