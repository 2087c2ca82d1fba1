package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.web.ProblemErrorHandler;
import dev.matview.web.TraceRefusal;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.junit.jupiter.api.Test;

/** Tests for {@link JettyServerCustomizers}. */
class JettyServerCustomizersTests {

  @Test
  void replacesJettysOwnErrorHandler() {
    Server server = new Server();
    JettyServerCustomizers.problemErrors().customize(server);
    assertThat(server.getErrorHandler()).isInstanceOf(ProblemErrorHandler.class);
  }

  @Test
  void keepsAnErrorHandlerOfTheUsersOwn() {
    Server server = new Server();
    ErrorHandler own = new ErrorHandler() {};
    server.setErrorHandler(own);
    JettyServerCustomizers.problemErrors().customize(server);
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
}
