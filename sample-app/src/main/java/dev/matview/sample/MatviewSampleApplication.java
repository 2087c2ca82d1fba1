package dev.matview.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Matview's sample: orders flow into the {@code orders} topic and three views answer over HTTP.
 *
 * <p>Run it with {@code mvn -pl sample-app -am spring-boot:run}, then try {@code curl
 * localhost:8080/views} and {@code curl localhost:8080/views/orders-per-customer/keys/customer-1}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class MatviewSampleApplication {

  public static void main(String[] args) {
    SpringApplication.run(MatviewSampleApplication.class, args);
  }
}
