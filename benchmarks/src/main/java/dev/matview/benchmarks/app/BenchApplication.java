package dev.matview.benchmarks.app;

import java.util.Arrays;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The app the benchmarks measure: the sample's views over {@code bench.topic}, plus a baseline
 * endpoint that serves the same answers from a {@code ConcurrentHashMap}, on Tomcat or, with {@code
 * --bench.container=jetty}, on Jetty.
 */
@SpringBootApplication
public class BenchApplication {

  /** The argument that picks the servlet container. */
  public static final String CONTAINER = "bench.container";

  private static final Map<String, String> OTHER_CONTAINERS_CONFIGURATION =
      Map.of(
          "tomcat",
          "org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration",
          "jetty",
          "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration");

  public static void main(String[] args) {
    run(args);
  }

  /** Runs the app with {@code args}, on the container they name. */
  public static ConfigurableApplicationContext run(String... args) {
    SpringApplication app = new SpringApplicationBuilder(BenchApplication.class).build();
    app.setDefaultProperties(
        Map.of("spring.autoconfigure.exclude", otherContainers(container(args))));
    return app.run(args);
  }

  /** The servlet container that {@code args} name with {@code --bench.container}, else tomcat. */
  public static String container(String... args) {
    return Arrays.stream(args)
        .filter(arg -> arg.startsWith("--" + CONTAINER + "="))
        .map(arg -> arg.substring(CONTAINER.length() + 3))
        .reduce((first, last) -> last)
        .orElse("tomcat");
  }

  /**
   * The auto-configuration of the container that an app running on {@code container} leaves out.
   */
  public static String otherContainers(String container) {
    String excluded = OTHER_CONTAINERS_CONFIGURATION.get(container);
    if (excluded == null) {
      throw new IllegalArgumentException(
          "--" + CONTAINER + "=" + container + " is not a container: use tomcat or jetty");
    }
    return excluded;
  }
}
