package dev.matview.benchmarks.handwritten;

import dev.matview.benchmarks.app.BenchApplication;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Runs a Spring Boot app written by hand on the benchmarks' classpath as a user's app would run:
 * without Matview's auto-configurations, on the servlet container that {@code --bench.container}
 * names (Tomcat by default), as the benchmark app picks its own.
 */
final class HandWrittenApps {

  private static final String AUTO_CONFIGURATIONS =
      "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports";

  private HandWrittenApps() {}

  /** Runs the app of {@code source} with {@code args}. */
  static ConfigurableApplicationContext run(Class<?> source, String... args) {
    SpringApplication app = new SpringApplicationBuilder(source).build();
    app.setDefaultProperties(
        Map.of(
            "spring.autoconfigure.exclude",
            matviews() + "," + BenchApplication.otherContainers(BenchApplication.container(args))));
    return app.run(args);
  }

  /**
   * Matview's auto-configurations, which the benchmarks' classpath holds and a user's would not.
   */
  private static String matviews() {
    try (InputStream imports =
        HandWrittenApps.class.getClassLoader().getResourceAsStream(AUTO_CONFIGURATIONS)) {
      return (imports == null)
          ? ""
          : new String(imports.readAllBytes(), StandardCharsets.UTF_8)
              .lines()
              .map(String::strip)
              .filter((line) -> line.startsWith("dev.matview."))
              .collect(Collectors.joining(","));
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }
}
