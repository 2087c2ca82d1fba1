package dev.matview.dashboard;

import jakarta.servlet.http.HttpServletRequest;

/** Decides whether a request may see the dashboard. */
@FunctionalInterface
public interface DashboardAccess {

  /** Lets every request in, as the actuator does without Spring Security. */
  DashboardAccess OPEN = (request) -> {};

  /** Returns when {@code request} may see the dashboard, else throws what security answers. */
  void check(HttpServletRequest request);
}
