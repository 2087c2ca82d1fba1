package dev.matview.dashboard;

import jakarta.servlet.http.HttpServletRequest;

/** Decides whether a request may see the dashboard. */
@FunctionalInterface
public interface DashboardAccess {

  /** Lets every request in, as the actuator does without Spring Security. */
  DashboardAccess OPEN = (request) -> {};

  /**
   * Returns when {@code request} may see the dashboard, and throws otherwise.
   *
   * @throws RuntimeException an exception that the application's security turns into its answer
   */
  void check(HttpServletRequest request);
}
