package dev.matview.autoconfigure;

import dev.matview.web.ProblemErrorPageFilter;
import jakarta.servlet.DispatcherType;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import tools.jackson.databind.ObjectMapper;

/** Registrations of filters that run on the servlet container's error dispatch. */
final class ErrorDispatchFilters {

  private ErrorDispatchFilters() {}

  /**
   * A {@link ProblemErrorPageFilter} for the requests under {@code basePath}, registered for the
   * container's error dispatch of every path.
   */
  static FilterRegistrationBean<ProblemErrorPageFilter> problems(
      String basePath, ObjectMapper mapper) {
    FilterRegistrationBean<ProblemErrorPageFilter> registration =
        new FilterRegistrationBean<>(new ProblemErrorPageFilter(basePath, mapper));
    registration.setDispatcherTypes(DispatcherType.ERROR);
    registration.addUrlPatterns("/*");
    return registration;
  }
}
