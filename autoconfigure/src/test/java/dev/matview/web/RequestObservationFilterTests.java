package dev.matview.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.query.routing.CallerContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The request's observation, the one open when the request reaches the filter, is the parent that
 * the caller of each read carries; a request that nothing observes carries none.
 */
class RequestObservationFilterTests {

  private final TestObservationRegistry registry = TestObservationRegistry.create();

  private final RequestObservationFilter filter = new RequestObservationFilter(this.registry);

  @Test
  void theCallerOfARequestCarriesTheObservationOpenWhenItArrived() throws Exception {
    Observation server = Observation.start("http.server.requests", this.registry);
    CallerContext caller;
    try (Observation.Scope scope = server.openScope()) {
      caller = callerThroughTheFilter();
    } finally {
      server.stop();
    }
    assertThat(caller.observation()).isSameAs(server);
  }

  @Test
  void theCallerOfARequestThatNothingObservesCarriesNoObservation() throws Exception {
    assertThat(callerThroughTheFilter().observation()).isSameAs(Observation.NOOP);
  }

  private CallerContext callerThroughTheFilter() throws Exception {
    MockHttpServletRequest request = new MockHttpServletRequest("GET", "/views/counts/keys/k");
    AtomicReference<CallerContext> caller = new AtomicReference<>();
    this.filter.doFilter(
        request,
        new MockHttpServletResponse(),
        (passed, response) -> caller.set(Callers.from((MockHttpServletRequest) passed, "counts")));
    return caller.get();
  }
}
