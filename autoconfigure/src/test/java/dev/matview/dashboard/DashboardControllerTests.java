package dev.matview.dashboard;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import jakarta.servlet.ServletException;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/** Tests for {@link DashboardController} and {@link DashboardPage}. */
class DashboardControllerTests {

  private final MockMvc mvc = mvc(new DashboardPage("/actuator/matviews"), DashboardAccess.OPEN);

  @Test
  void servesThePageToldWhereTheEndpointAndItsFilesAreUnderTheContextPath() throws Exception {
    this.mvc
        .perform(get("/shop/matview").contextPath("/shop"))
        .andExpect(status().isOk())
        .andExpect(content().contentType("text/html;charset=UTF-8"))
        .andExpect(content().string(containsString("data-endpoint=\"/shop/actuator/matviews\"")))
        .andExpect(content().string(containsString("data-context=\"/shop\"")))
        .andExpect(content().string(containsString("href=\"/shop/matview/dashboard.css\"")))
        .andExpect(content().string(containsString("src=\"/shop/matview/dashboard.js\"")))
        .andExpect(header().string("Cache-Control", "no-cache"))
        .andExpect(header().string("Content-Security-Policy", containsString("script-src 'self'")))
        .andExpect(header().string("X-Content-Type-Options", "nosniff"));
  }

  @Test
  void servesThePageWithATrailingSlashToo() throws Exception {
    this.mvc
        .perform(get("/matview/"))
        .andExpect(status().isOk())
        .andExpect(content().string(containsString("data-endpoint=\"/actuator/matviews\"")));
  }

  @Test
  void servesTheStyleSheetAndTheScript() throws Exception {
    this.mvc
        .perform(get("/matview/dashboard.css"))
        .andExpect(status().isOk())
        .andExpect(content().contentType("text/css;charset=UTF-8"))
        .andExpect(content().string(containsString(".cell.active")));
    this.mvc
        .perform(get("/matview/dashboard.js"))
        .andExpect(status().isOk())
        .andExpect(content().contentType("text/javascript;charset=UTF-8"))
        .andExpect(content().string(containsString("Matview-Served-By")));
  }

  @Test
  void tellsThePageThatTheEndpointIsNotExposedWhenItHasNoPath() throws Exception {
    mvc(new DashboardPage(null), DashboardAccess.OPEN)
        .perform(get("/matview"))
        .andExpect(status().isOk())
        .andExpect(content().string(containsString("data-endpoint=\"\"")))
        .andExpect(content().string(not(containsString("{{"))));
  }

  @Test
  void escapesTheContextPath() throws Exception {
    this.mvc
        .perform(get("/a&b/matview").contextPath("/a&b"))
        .andExpect(content().string(containsString("data-context=\"/a&amp;b\"")));
  }

  @Test
  void servesNothingToARequestThatTheAccessRefuses() {
    MockMvc refusing =
        mvc(
            new DashboardPage("/actuator/matviews"),
            (request) -> {
              throw new IllegalStateException("refused");
            });
    for (String path :
        new String[] {"/matview", "/matview/dashboard.css", "/matview/dashboard.js"}) {
      assertThatExceptionOfType(ServletException.class)
          .isThrownBy(() -> refusing.perform(get(path)))
          .withRootCauseInstanceOf(IllegalStateException.class);
    }
  }

  private static MockMvc mvc(DashboardPage page, DashboardAccess access) {
    return MockMvcBuilders.standaloneSetup(new DashboardController(page, access)).build();
  }
}
