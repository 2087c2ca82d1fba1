package dev.matview.dashboard;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.access.WebInvocationPrivilegeEvaluator;

/** Tests for {@link ActuatorPrivilege}. */
class ActuatorPrivilegeTests {

  private final WebInvocationPrivilegeEvaluator evaluator =
      mock(WebInvocationPrivilegeEvaluator.class);

  private final ActuatorPrivilege privilege =
      new ActuatorPrivilege(this.evaluator, "/actuator/matviews");

  private final Authentication user = new TestingAuthenticationToken("ops", "secret", "OPS");

  @AfterEach
  void forgetTheUser() {
    SecurityContextHolder.clearContext();
  }

  @Test
  void letsInAUserWhoMayGetTheEndpointInTheSameApplication() {
    SecurityContextHolder.getContext().setAuthentication(this.user);
    given(this.evaluator.isAllowed("/shop", "/actuator/matviews", "GET", this.user))
        .willReturn(true);
    MockHttpServletRequest request = new MockHttpServletRequest("GET", "/shop/matview");
    request.setContextPath("/shop");
    assertThatNoException().isThrownBy(() -> this.privilege.check(request));
  }

  @Test
  void refusesAUserWhoMayNotGetTheEndpoint() {
    SecurityContextHolder.getContext().setAuthentication(this.user);
    given(this.evaluator.isAllowed(eq(""), eq("/actuator/matviews"), eq("GET"), any()))
        .willReturn(false);
    assertThatExceptionOfType(AccessDeniedException.class)
        .isThrownBy(() -> this.privilege.check(new MockHttpServletRequest("GET", "/matview")))
        .withMessageContaining("/actuator/matviews");
  }
}
