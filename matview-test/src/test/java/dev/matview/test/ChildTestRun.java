package dev.matview.test;

import java.io.PrintWriter;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs the test classes its arguments name on the JUnit Platform and exits as a build's test JVM
 * does, so that what the tests print until the JVM has gone, shutdown hooks included, can be read.
 */
final class ChildTestRun {

  private ChildTestRun() {}

  public static void main(String[] args) throws ClassNotFoundException {
    LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
    for (String name : args) {
      request.selectors(DiscoverySelectors.selectClass(Class.forName(name)));
    }
    LauncherDiscoveryRequest discovery = request.build();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create().execute(discovery, listener);
    TestExecutionSummary summary = listener.getSummary();
    summary.printFailuresTo(new PrintWriter(System.out, true), 50);
    System.out.println(
        "child test run: "
            + summary.getTestsSucceededCount()
            + " passed, "
            + summary.getTotalFailureCount()
            + " failed");
    System.exit(summary.getTotalFailureCount() == 0 ? 0 : 1);
  }
}
