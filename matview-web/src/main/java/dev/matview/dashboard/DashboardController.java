package dev.matview.dashboard;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/** Serves the dashboard page and its two files to those whom the access lets in. */
@Controller
public final class DashboardController {

  /** Where the dashboard is. */
  public static final String PATH = "/matview";

  /** The page's sources: its own files only, and requests to its own origin. */
  private static final String POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          + "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

  private final DashboardPage page;

  private final DashboardAccess access;

  /** Serves {@code page} to the requests that {@code access} lets in. */
  public DashboardController(DashboardPage page, DashboardAccess access) {
    this.page = page;
    this.access = access;
  }

  @GetMapping({PATH, PATH + "/"})
  ResponseEntity<String> page(HttpServletRequest request) {
    return answer(request, MediaType.TEXT_HTML, this.page.html(request.getContextPath()));
  }

  @GetMapping(PATH + "/dashboard.css")
  ResponseEntity<String> css(HttpServletRequest request) {
    return answer(request, new MediaType("text", "css"), this.page.css());
  }

  @GetMapping(PATH + "/dashboard.js")
  ResponseEntity<String> script(HttpServletRequest request) {
    return answer(request, new MediaType("text", "javascript"), this.page.script());
  }

  private ResponseEntity<String> answer(
      HttpServletRequest request, MediaType type, String content) {
    this.access.check(request);
    return ResponseEntity.ok()
        .contentType(new MediaType(type, StandardCharsets.UTF_8))
        .cacheControl(CacheControl.noCache())
        .header("Content-Security-Policy", POLICY)
        .header("X-Content-Type-Options", "nosniff")
        .header("Referrer-Policy", "no-referrer")
        .body(content);
  }
}
