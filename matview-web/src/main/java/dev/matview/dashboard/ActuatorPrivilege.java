package dev.matview.dashboard;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.access.WebInvocationPrivilegeEvaluator;

/**
 * Lets a request see the dashboard only when its user may {@code GET} the {@code matviews}
 * endpoint, else throws {@link AccessDeniedException}, which Spring Security answers as for the
 * endpoint.
 */
public final class ActuatorPrivilege implements DashboardAccess {

  private final WebInvocationPrivilegeEvaluator evaluator;

  private final String endpointPath;

  /** Asks {@code evaluator} about {@code endpointPath}, the endpoint's path in the application. */
  public ActuatorPrivilege(WebInvocationPrivilegeEvaluator evaluator, String endpointPath) {
    this.evaluator = evaluator;
    this.endpointPath = endpointPath;
  }

  @Override
  public void check(HttpServletRequest request) {
    Authentication user =
        SecurityContextHolder.getContextHolderStrategy().getContext().getAuthentication();
    if (!this.evaluator.isAllowed(request.getContextPath(), this.endpointPath, "GET", user)) {
      throw new AccessDeniedException(
          "The dashboard is shown to those who may read " + this.endpointPath);
    }
  }
}
