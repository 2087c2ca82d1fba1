package dev.matview.autoconfigure;

import dev.matview.web.ProblemErrorHandler;
import dev.matview.web.TraceRefusal;
import org.eclipse.jetty.ee11.servlet.ServletHandler;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.springframework.boot.jetty.JettyServerCustomizer;

/** What Matview changes in a Jetty server, so that it answers as Matview does on Tomcat. */
final class JettyServerCustomizers {

  /** The package of Jetty's own error handlers, which Matview's replaces. */
  private static final String JETTY_SERVER_PACKAGE = "org.eclipse.jetty.server.";

  private JettyServerCustomizers() {}

  /** Puts {@link ProblemErrorHandler} in place of Jetty's error page, unless the user set one. */
  static JettyServerCustomizer problemErrors(String lookupPath) {
    return (server) -> {
      Request.Handler current = server.getErrorHandler();
      if (current == null || current.getClass().getName().startsWith(JETTY_SERVER_PACKAGE)) {
        server.setErrorHandler(new ProblemErrorHandler(lookupPath));
      }
    };
  }

  /**
   * Lets {@code %2F} and {@code %252F} through in a request path, which Jetty calls ambiguous and
   * refuses by default.
   */
  static JettyServerCustomizer encodedSlashes() {
    return (server) -> {
      for (Connector connector : server.getConnectors()) {
        for (HttpConnectionFactory http :
            connector.getConnectionFactories().stream()
                .filter(HttpConnectionFactory.class::isInstance)
                .map(HttpConnectionFactory.class::cast)
                .toList()) {
          UriCompliance compliance = http.getHttpConfiguration().getUriCompliance();
          http.getHttpConfiguration()
              .setUriCompliance(
                  compliance.with(
                      "matview-keys",
                      UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR,
                      UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING));
        }
      }
      server
          .getDescendants(ServletHandler.class)
          .forEach((handler) -> handler.setDecodeAmbiguousURIs(true));
    };
  }

  /** Wraps the server's handler in {@link TraceRefusal}. */
  static JettyServerCustomizer traceRefusal() {
    return (Server server) -> server.setHandler(new TraceRefusal(server.getHandler()));
  }
}
