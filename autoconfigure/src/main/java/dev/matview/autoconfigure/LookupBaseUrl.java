package dev.matview.autoconfigure;

import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/** The URL under which this instance serves the lookups. */
final class LookupBaseUrl {

  private LookupBaseUrl() {}

  /** The lookups' base URL at {@code host}, or {@code null} with no web server or lookups off. */
  static @Nullable String of(
      @Nullable HostInfo host, MatviewProperties.Web web, Environment environment) {
    if (host == null || !web.isEnabled()) {
      return null;
    }
    return (ssl(environment) ? "https" : "http")
        + "://"
        + host.host()
        + ":"
        + host.port()
        + path(web, environment);
  }

  /** The context path and {@code matview.web.base-path}, without a trailing slash. */
  static String path(MatviewProperties.Web web, Environment environment) {
    String contextPath = environment.getProperty("server.servlet.context-path", "");
    if (contextPath.endsWith("/")) {
      contextPath = contextPath.substring(0, contextPath.length() - 1);
    }
    return contextPath + web.basePathWithoutTrailingSlash();
  }

  private static boolean ssl(Environment environment) {
    boolean configured =
        StringUtils.hasText(environment.getProperty("server.ssl.bundle"))
            || StringUtils.hasText(environment.getProperty("server.ssl.key-store"))
            || StringUtils.hasText(environment.getProperty("server.ssl.certificate"));
    return configured && environment.getProperty("server.ssl.enabled", Boolean.class, true);
  }
}
