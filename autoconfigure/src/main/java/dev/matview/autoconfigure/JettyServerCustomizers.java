package dev.matview.autoconfigure;

import dev.matview.web.ProblemErrorHandler;
import dev.matview.web.TraceRefusal;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.springframework.boot.jetty.JettyServerCustomizer;

/** What Matview changes in a Jetty server, so that it answers as Matview does on Tomcat. */
final class JettyServerCustomizers {

  /** The package of Jetty's own error handlers, which Matview's replaces. */
  private static final String JETTY_SERVER_PACKAGE = "org.eclipse.jetty.server.";

  private JettyServerCustomizers() {}

  /**
   * Puts {@link ProblemErrorHandler} in place of Jetty's HTML error page, unless the user set an
   * error handler of their own: then theirs stays.
   */
  static JettyServerCustomizer problemErrors() {
    return (server) -> {
      Request.Handler current = server.getErrorHandler();
      if (current == null || current.getClass().getName().startsWith(JETTY_SERVER_PACKAGE)) {
        server.setErrorHandler(new ProblemErrorHandler());
      }
    };
  }

  /** Wraps the server's handler in {@link TraceRefusal}. */
  static JettyServerCustomizer traceRefusal() {
    return (Server server) -> server.setHandler(new TraceRefusal(server.getHandler()));
  }
}
