package dev.matview.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.ClassPathResource;
import org.springframework.util.StreamUtils;
import org.springframework.web.util.HtmlUtils;

/** The dashboard's page, told where the {@code matviews} endpoint is, and its CSS and script. */
public final class DashboardPage {

  private static final String LOCATION = "META-INF/matview/dashboard/";

  private final String html;

  private final String css;

  private final String script;

  private final @Nullable String endpointPath;

  /** The page that reads the endpoint at {@code endpointPath}, or says how to expose it. */
  public DashboardPage(@Nullable String endpointPath) {
    this.html = read("index.html");
    this.css = read("dashboard.css");
    this.script = read("dashboard.js");
    this.endpointPath = endpointPath;
  }

  /** The page for an application at {@code contextPath}. */
  public String html(String contextPath) {
    String endpoint = (this.endpointPath != null) ? contextPath + this.endpointPath : "";
    return this.html
        .replace("{{base}}", HtmlUtils.htmlEscape(contextPath + DashboardController.PATH))
        .replace("{{context}}", HtmlUtils.htmlEscape(contextPath))
        .replace("{{endpoint}}", HtmlUtils.htmlEscape(endpoint));
  }

  /** The style sheet. */
  public String css() {
    return this.css;
  }

  /** The script. */
  public String script() {
    return this.script;
  }

  private static String read(String name) {
    try (InputStream in = new ClassPathResource(LOCATION + name).getInputStream()) {
      return StreamUtils.copyToString(in, StandardCharsets.UTF_8);
    } catch (IOException ex) {
      throw new UncheckedIOException("The dashboard's " + name + " is missing", ex);
    }
  }
}
