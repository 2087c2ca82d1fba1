package dev.matview.web;

import dev.matview.peer.PeerRequests;
import dev.matview.peer.ProblemTypes;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Enumeration;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.ObjectMapper;

/**
 * Honours the forwarded marker only on requests another instance signed ({@link
 * PeerRequests#SIGNATURE_HEADER} over method, path, query, signed headers and body); a bad
 * signature is refused 403 (503 while the secret is unknown), and a body is read ahead only once
 * the headers' signature is valid, so only a peer can make it hold a body in memory.
 *
 * <p>It judges the request URI as received, which Spring MVC maps, not the container's normalized
 * path: {@code /views/../keys} lies outside the base path for the container but reaches a view in
 * Spring MVC.
 */
public final class PeerRequestFilter extends OncePerRequestFilter {

  /** The request attribute that marks a request another instance signed. */
  public static final String PEER_ATTRIBUTE = PeerRequestFilter.class.getName() + ".peer";

  private static final Log logger = LogFactory.getLog(PeerRequestFilter.class);

  private static final int MAX_SIGNED_BODY = 32 * 1024 * 1024;

  private static final int PENDING_RETRY_SECONDS = 1;

  private final ProblemWriter problems;

  private final PeerRequests requests;

  /** A filter of the requests under {@code basePath}, checked with {@code requests}. */
  public PeerRequestFilter(String basePath, PeerRequests requests, ObjectMapper mapper) {
    this.problems = new ProblemWriter(basePath, mapper);
    this.requests = requests;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !this.problems.covers(request.getRequestURI(), request.getContextPath());
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String signature = request.getHeader(PeerRequests.SIGNATURE_HEADER);
    if (signature == null) {
      if (request.getHeader(PeerRequests.FORWARDED_HEADER) == null) {
        chain.doFilter(request, response);
        return;
      }
      logServedAsAnyCaller(request, "it carries no " + PeerRequests.SIGNATURE_HEADER + " header");
      chain.doFilter(new PeerCheckedRequest(request, false, null), response);
      return;
    }
    PeerRequests.Check check =
        this.requests.check(
            request.getMethod(), pathAndQuery(request), signature, (name) -> values(request, name));
    if (!check.valid()) {
      refuse(request, response, check);
      return;
    }
    boolean withBody = "POST".equals(request.getMethod()) || "PUT".equals(request.getMethod());
    if (!withBody && check.bodyDigest() == null) {
      request.setAttribute(PEER_ATTRIBUTE, Boolean.TRUE);
      chain.doFilter(new PeerCheckedRequest(request, true, null), response);
      return;
    }
    if (withBody && check.bodyDigest() != null) {
      byte[] read = request.getInputStream().readNBytes(MAX_SIGNED_BODY + 1);
      if (read.length <= MAX_SIGNED_BODY && check.matchesBody(read)) {
        request.setAttribute(PEER_ATTRIBUTE, Boolean.TRUE);
        chain.doFilter(
            new PeerCheckedRequest(request, true, new ByteArrayInputStream(read)), response);
        return;
      }
    }
    refuse(request, response, this.requests.refusedBody());
  }

  private void refuse(
      HttpServletRequest request, HttpServletResponse response, PeerRequests.Check check)
      throws IOException {
    if (logger.isDebugEnabled()) {
      logger.debug(
          request.getMethod()
              + " "
              + pathAndQuery(request)
              + " is refused: its "
              + PeerRequests.SIGNATURE_HEADER
              + " does not check: "
              + check.reason());
    }
    boolean pending = check.outcome() == PeerRequests.Outcome.PENDING;
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            pending ? HttpStatus.SERVICE_UNAVAILABLE : HttpStatus.FORBIDDEN,
            pending
                ? "This instance has not agreed on a secret with the other instances yet, so it"
                    + " cannot check the request's "
                    + PeerRequests.SIGNATURE_HEADER
                    + " header; retry shortly"
                : "The request's "
                    + PeerRequests.SIGNATURE_HEADER
                    + " header is not a valid signature by an instance of this application;"
                    + " send the request without it");
    problem.setType(ProblemTypes.of(pending ? "peer-secret-pending" : "invalid-peer-signature"));
    problem.setTitle(pending ? "Peer secret not agreed yet" : "Invalid peer signature");
    if (pending) {
      problem.setProperty("retryAfterSeconds", PENDING_RETRY_SECONDS);
      response.setHeader(HttpHeaders.RETRY_AFTER, Integer.toString(PENDING_RETRY_SECONDS));
    }
    this.problems.write(response, problem);
  }

  private static void logServedAsAnyCaller(HttpServletRequest request, String reason) {
    if (logger.isDebugEnabled()) {
      logger.debug(
          request.getMethod()
              + " "
              + pathAndQuery(request)
              + " carries "
              + PeerRequests.FORWARDED_HEADER
              + " but is served as any caller's: "
              + reason);
    }
  }

  private static String pathAndQuery(HttpServletRequest request) {
    String query = request.getQueryString();
    return request.getRequestURI() + (query != null ? "?" + query : "");
  }

  /** Every value of the header {@code name}, joined with a line feed, or {@code null}. */
  private static @Nullable String values(HttpServletRequest request, String name) {
    Enumeration<String> values = request.getHeaders(name);
    if (values == null || !values.hasMoreElements()) {
      return null;
    }
    String first = values.nextElement();
    if (!values.hasMoreElements()) {
      return first;
    }
    StringBuilder joined = new StringBuilder(first);
    while (values.hasMoreElements()) {
      joined.append('\n').append(values.nextElement());
    }
    return joined.toString();
  }

  /** Whether {@code request} is one that another instance signed. */
  static boolean isPeer(HttpServletRequest request) {
    return Boolean.TRUE.equals(request.getAttribute(PEER_ATTRIBUTE));
  }
}
