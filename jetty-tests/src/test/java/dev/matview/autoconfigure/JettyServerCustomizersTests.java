package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.web.ProblemErrorHandler;
import dev.matview.web.TraceRefusal;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.junit.jupiter.api.Test;

/** Tests for {@link JettyServerCustomizers}. */
class JettyServerCustomizersTests {

  @Test
  void replacesJettysOwnErrorHandler() {
    Server server = new Server();
    JettyServerCustomizers.problemErrors("/views").customize(server);
    assertThat(server.getErrorHandler()).isInstanceOf(ProblemErrorHandler.class);
  }

  @Test
  void keepsAnErrorHandlerOfTheUsersOwn() {
    Server server = new Server();
    ErrorHandler own = new ErrorHandler() {};
    server.setErrorHandler(own);
    JettyServerCustomizers.problemErrors("/views").customize(server);
    assertThat(server.getErrorHandler()).isSameAs(own);
  }

  @Test
  void wrapsTheServersHandlerInTheTraceRefusal() {
    Server server = new Server();
    Handler application = new ContextHandler();
    server.setHandler(application);
    JettyServerCustomizers.traceRefusal().customize(server);
    assertThat(server.getHandler()).isInstanceOf(TraceRefusal.class);
    assertThat(((TraceRefusal) server.getHandler()).getHandler()).isSameAs(application);
  }

  @Test
  void letsAnEncodedSlashThroughEachConnectorAndToTheServlets() {
    Server server = new Server();
    HttpConfiguration http = new HttpConfiguration();
    server.addConnector(new ServerConnector(server, new HttpConnectionFactory(http)));
    ServletContextHandler servlets = new ServletContextHandler();
    server.setHandler(servlets);
    assertThat(http.getUriCompliance().allows(UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR))
        .isFalse();
    JettyServerCustomizers.encodedSlashes().customize(server);
    assertThat(http.getUriCompliance().allows(UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR))
        .isTrue();
    assertThat(http.getUriCompliance().allows(UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING))
        .isTrue();
    assertThat(http.getUriCompliance().allows(UriCompliance.Violation.AMBIGUOUS_PATH_SEGMENT))
        .as("a dot segment stays refused")
        .isFalse();
    assertThat(servlets.getServletHandler().isDecodeAmbiguousURIs()).isTrue();
  }
}
