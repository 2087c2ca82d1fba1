package dev.matview.autoconfigure;

import dev.matview.web.ProblemErrorPageFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;
import java.util.function.Supplier;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.util.function.SingletonSupplier;

/**
 * A filter made at its first request rather than when the web server registers it, which would
 * create its beans before the application's others and have the container log a failure at ERROR
 * before Spring Boot reports it.
 */
final class FirstRequestFilter implements Filter {

  private final SingletonSupplier<Filter> filter;

  /** A filter that {@code filter} makes at the first request. */
  FirstRequestFilter(Supplier<? extends Filter> filter) {
    this.filter = SingletonSupplier.of(filter::get);
  }

  /** The registration of the filter {@code filter} makes, for every path. */
  static FilterRegistrationBean<FirstRequestFilter> registration(
      Supplier<? extends Filter> filter) {
    FilterRegistrationBean<FirstRequestFilter> registration =
        new FilterRegistrationBean<>(new FirstRequestFilter(filter));
    registration.addUrlPatterns("/*");
    return registration;
  }

  /** {@code filter}'s filter, registered for the container's error dispatch of every path. */
  static FilterRegistrationBean<FirstRequestFilter> errorDispatch(
      Supplier<ProblemErrorPageFilter> filter) {
    FilterRegistrationBean<FirstRequestFilter> registration = registration(filter);
    registration.setDispatcherTypes(DispatcherType.ERROR);
    return registration;
  }

  /** The filter, made now unless a request made it before. */
  Filter filter() {
    return this.filter.obtain();
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    this.filter.obtain().doFilter(request, response, chain);
  }
}
