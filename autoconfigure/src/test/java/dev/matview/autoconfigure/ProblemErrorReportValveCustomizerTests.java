package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.web.ProblemErrorReportValve;
import java.util.Arrays;
import java.util.List;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.junit.jupiter.api.Test;

/** Tests for {@link ProblemErrorReportValveCustomizer}. */
class ProblemErrorReportValveCustomizerTests {

  @Test
  void replacesTomcatsPlainErrorReport() {
    StandardHost host = new StandardHost();
    host.getPipeline().addValve(new ErrorReportValve());
    ProblemErrorReportValveCustomizer.replaceErrorReport(host, "/views");
    assertThat(errorReports(host)).hasSize(1).allMatch(ProblemErrorReportValve.class::isInstance);
    assertThat(host.getErrorReportValveClass()).isEqualTo(ProblemErrorReportValve.class.getName());
  }

  @Test
  void keepsAnErrorReportValveOfTheUsersOwn() {
    StandardHost host = new StandardHost();
    UserErrorReportValve own = new UserErrorReportValve();
    host.getPipeline().addValve(own);
    ProblemErrorReportValveCustomizer.replaceErrorReport(host, "/views");
    assertThat(errorReports(host)).containsExactly(own);
  }

  @Test
  void keepsAnErrorReportValveClassTheUserNamed() {
    StandardHost host = new StandardHost();
    host.setErrorReportValveClass(UserErrorReportValve.class.getName());
    ProblemErrorReportValveCustomizer.replaceErrorReport(host, "/views");
    assertThat(errorReports(host)).isEmpty();
    assertThat(host.getErrorReportValveClass()).isEqualTo(UserErrorReportValve.class.getName());
  }

  private static List<Valve> errorReports(StandardHost host) {
    return Arrays.stream(host.getPipeline().getValves())
        .filter(ErrorReportValve.class::isInstance)
        .toList();
  }

  static class UserErrorReportValve extends ErrorReportValve {}
}
