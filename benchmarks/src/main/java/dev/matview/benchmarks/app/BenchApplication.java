package dev.matview.benchmarks.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The app the benchmarks measure: the sample's views over {@code bench.topic}, plus a baseline
 * endpoint that serves the same answers from a {@code ConcurrentHashMap}.
 */
@SpringBootApplication
public class BenchApplication {

  public static void main(String[] args) {
    SpringApplication.run(BenchApplication.class, args);
  }
}
