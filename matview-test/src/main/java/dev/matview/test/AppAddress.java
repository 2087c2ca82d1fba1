package dev.matview.test;

import org.springframework.core.env.Environment;

/**
 * Where the application under test answers HTTP: its web server's real port on localhost, known
 * once the server has started, under the servlet context path.
 */
final class AppAddress {

  private final Environment environment;

  private final String viewsPath;

  /**
   * The address of the application of {@code environment}, whose views lie under {@code viewsPath}.
   */
  AppAddress(Environment environment, String viewsPath) {
    this.environment = environment;
    this.viewsPath = viewsPath;
  }

  /**
   * The application's root, such as {@code http://localhost:54321}, with its context path.
   *
   * @throws IllegalStateException when no web server has started
   */
  String root() {
    Integer port = this.environment.getProperty("local.server.port", Integer.class);
    if (port == null || port <= 0) {
      throw new IllegalStateException(
          "The application has no web server listening: MatviewTestClient needs"
              + " @MatviewIntegrationTest's webEnvironment RANDOM_PORT (the default) or"
              + " DEFINED_PORT");
    }
    String contextPath = this.environment.getProperty("server.servlet.context-path", "");
    if (contextPath.endsWith("/")) {
      contextPath = contextPath.substring(0, contextPath.length() - 1);
    }
    return "http://localhost:" + port + contextPath;
  }

  /** The root of the views' endpoints, such as {@code http://localhost:54321/views}. */
  String views() {
    return root() + this.viewsPath;
  }
}
