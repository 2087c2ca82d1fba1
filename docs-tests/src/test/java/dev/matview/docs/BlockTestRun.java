package dev.matview.docs;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs the tests among the pages' classes in one session of the JUnit Platform, with the pages'
 * class loader as the thread's context class loader (Spring Boot's test support finds the app's
 * {@code @SpringBootConfiguration} through it), so that tests of one app share its cached context
 * and its broker.
 */
final class BlockTestRun {

  private BlockTestRun() {}

  /** The summary of running every top-level class of {@code classNames} that holds tests. */
  static TestExecutionSummary run(ClassLoader loader, List<String> classNames)
      throws ClassNotFoundException {
    List<ClassSelector> selectors = new ArrayList<>();
    for (String name : classNames) {
      if (!name.contains("$")) {
        selectors.add(selectClass(Class.forName(name, false, loader)));
      }
    }
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request().selectors(selectors).build();
    SummaryGeneratingListener summary = new SummaryGeneratingListener();
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try (LauncherSession session = LauncherFactory.openSession()) {
      session.getLauncher().execute(request, summary);
    } finally {
      thread.setContextClassLoader(previous);
    }
    return summary.getSummary();
  }

  /** The summary with every failure's stack trace, for an assertion's message. */
  static String describe(TestExecutionSummary summary) {
    StringWriter text = new StringWriter();
    PrintWriter out = new PrintWriter(text);
    summary.printTo(out);
    for (TestExecutionSummary.Failure failure : summary.getFailures()) {
      out.println(failure.getTestIdentifier().getDisplayName() + " failed:");
      for (Throwable cause = failure.getException(); cause != null; cause = cause.getCause()) {
        out.println("  " + cause);
      }
    }
    summary.printFailuresTo(out, 15);
    out.flush();
    return text.toString();
  }
}
