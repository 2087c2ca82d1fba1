package dev.matview.autoconfigure;

import dev.matview.web.ProblemErrorReportValve;
import org.apache.catalina.Container;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Puts {@link ProblemErrorReportValve} in place of the plain {@link ErrorReportValve} that Spring
 * Boot's own Tomcat customizer adds, unless the user configured a valve of their own.
 */
final class ProblemErrorReportValveCustomizer
    implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

  private final String basePath;

  /** A customizer for lookup endpoints under {@code basePath}, without a trailing slash. */
  ProblemErrorReportValveCustomizer(String basePath) {
    this.basePath = basePath;
  }

  @Override
  public void customize(ConfigurableTomcatWebServerFactory factory) {
    factory.addContextCustomizers(
        context -> replaceErrorReport(context.getParent(), context.getPath() + this.basePath));
  }

  /** Puts the problem-detail valve in place of {@code host}'s error report. */
  static void replaceErrorReport(Container host, String lookupPath) {
    if (host instanceof StandardHost standardHost
        && !ErrorReportValve.class.getName().equals(standardHost.getErrorReportValveClass())) {
      return;
    }
    Pipeline pipeline = host.getPipeline();
    for (Valve valve : pipeline.getValves()) {
      if (valve instanceof ErrorReportValve && valve.getClass() != ErrorReportValve.class) {
        return;
      }
    }
    for (Valve valve : pipeline.getValves()) {
      if (valve.getClass() == ErrorReportValve.class) {
        pipeline.removeValve(valve);
      }
    }
    if (host instanceof StandardHost standardHost) {
      standardHost.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
    }
    pipeline.addValve(new ProblemErrorReportValve(lookupPath));
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }
}
