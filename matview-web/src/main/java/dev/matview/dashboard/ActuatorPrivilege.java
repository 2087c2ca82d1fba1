package dev.matview.dashboard;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.access.WebInvocationPrivilegeEvaluator;

/**
 * Lets a request see the dashboard only when Spring Security would let its user {@code GET} the
 * {@code matviews} endpoint; otherwise throws {@link AccessDeniedException}, which Spring
 * Security's exception translation answers as it answers for the endpoint: a challenge (401 or a
 * login page) for an anonymous user, 403 for one who is signed in.
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
