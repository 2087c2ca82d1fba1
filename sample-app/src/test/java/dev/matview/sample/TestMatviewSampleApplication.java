package dev.matview.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Runs the sample on Kafka in a container (Docker needed) instead of its development broker: run
 * this class from the IDE, or {@code mvn -pl sample-app -am spring-boot:test-run}.
 */
public final class TestMatviewSampleApplication {

  private TestMatviewSampleApplication() {}

  public static void main(String[] args) {
    run(args);
  }

  /** Starts the sample with {@link ContainersConfiguration} and {@code args}. */
  static ConfigurableApplicationContext run(String... args) {
    return SpringApplication.from(MatviewSampleApplication::main)
        .with(ContainersConfiguration.class)
        .run(args)
        .getApplicationContext();
  }
}
