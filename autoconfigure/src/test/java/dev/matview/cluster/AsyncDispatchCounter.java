package dev.matview.cluster;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.web.filter.GenericFilterBean;

/**
 * Counts the key lookups an instance took asynchronous and the second dispatches through the
 * filters and Spring MVC that such lookups took to write their answers.
 */
final class AsyncDispatchCounter extends GenericFilterBean {

  private final AtomicLong wentAsynchronous = new AtomicLong();

  private final AtomicLong dispatchedAgain = new AtomicLong();

  /** The counter as a filter of every request and every asynchronous dispatch. */
  FilterRegistrationBean<AsyncDispatchCounter> registration() {
    FilterRegistrationBean<AsyncDispatchCounter> registration = new FilterRegistrationBean<>(this);
    registration.setDispatcherTypes(EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
    return registration;
  }

  @Override
  public void doFilter(
      jakarta.servlet.ServletRequest request,
      jakarta.servlet.ServletResponse response,
      FilterChain chain)
      throws IOException, ServletException {
    boolean lookup = ((HttpServletRequest) request).getRequestURI().contains("/keys/");
    if (lookup && request.getDispatcherType() == DispatcherType.ASYNC) {
      this.dispatchedAgain.incrementAndGet();
    }
    chain.doFilter(request, (HttpServletResponse) response);
    if (lookup
        && request.getDispatcherType() == DispatcherType.REQUEST
        && request.isAsyncStarted()) {
      this.wentAsynchronous.incrementAndGet();
    }
  }

  /** How many key lookups went asynchronous to wait for their answer. */
  long wentAsynchronous() {
    return this.wentAsynchronous.get();
  }

  /** How many key lookups were dispatched a second time to write their answer. */
  long dispatchedAgain() {
    return this.dispatchedAgain.get();
  }
}
