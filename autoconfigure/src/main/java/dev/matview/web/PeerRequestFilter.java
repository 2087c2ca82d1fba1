package dev.matview.web;

import dev.matview.peer.PeerRequests;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.SequenceInputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Honours the forwarded marker only on requests that another instance of the application signed:
 * checks {@link PeerRequests#SIGNATURE_HEADER} against the method, the path and query as received
 * and, for a body, its SHA-256, and marks the request as a peer's. From any other request it
 * removes the marker and the signature, so that it is served like any caller's.
 *
 * <p>A body is read ahead only when the signature over the headers is valid, so only a peer can
 * make this filter hold a body in memory.
 */
public final class PeerRequestFilter extends OncePerRequestFilter {

  /** The request attribute that marks a request another instance signed. */
  public static final String PEER_ATTRIBUTE = PeerRequestFilter.class.getName() + ".peer";

  private static final Log logger = LogFactory.getLog(PeerRequestFilter.class);

  private static final int MAX_SIGNED_BODY = 32 * 1024 * 1024;

  private static final List<String> PEER_HEADERS =
      List.of(PeerRequests.FORWARDED_HEADER, PeerRequests.SIGNATURE_HEADER);

  private final PeerRequests requests;

  /** A filter that checks signatures with {@code requests}. */
  public PeerRequestFilter(PeerRequests requests) {
    this.requests = requests;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String signature = request.getHeader(PeerRequests.SIGNATURE_HEADER);
    if (signature == null && request.getHeader(PeerRequests.FORWARDED_HEADER) == null) {
      chain.doFilter(request, response);
      return;
    }
    String query = request.getQueryString();
    String pathAndQuery = request.getRequestURI() + (query != null ? "?" + query : "");
    PeerRequests.Check check = this.requests.check(request.getMethod(), pathAndQuery, signature);
    boolean withBody = "POST".equals(request.getMethod()) || "PUT".equals(request.getMethod());
    if (check.valid() && !withBody && check.bodyDigest() == null) {
      request.setAttribute(PEER_ATTRIBUTE, Boolean.TRUE);
      chain.doFilter(new CheckedRequest(request, true, null), response);
      return;
    }
    InputStream body = null;
    if (check.valid() && withBody && check.bodyDigest() != null) {
      byte[] read = request.getInputStream().readNBytes(MAX_SIGNED_BODY + 1);
      if (read.length <= MAX_SIGNED_BODY && check.matchesBody(read)) {
        request.setAttribute(PEER_ATTRIBUTE, Boolean.TRUE);
        chain.doFilter(new CheckedRequest(request, true, new ByteArrayInputStream(read)), response);
        return;
      }
      body = new SequenceInputStream(new ByteArrayInputStream(read), request.getInputStream());
      check = new PeerRequests.Check(false, null, "the body is not the one signed");
    }
    if (logger.isDebugEnabled()) {
      logger.debug(
          request.getMethod()
              + " "
              + pathAndQuery
              + " carries "
              + PeerRequests.FORWARDED_HEADER
              + " or "
              + PeerRequests.SIGNATURE_HEADER
              + " but is served as any caller's: "
              + check.reason());
    }
    chain.doFilter(new CheckedRequest(request, false, body), response);
  }

  /** Whether {@code request} is one that another instance signed. */
  static boolean isPeer(HttpServletRequest request) {
    return Boolean.TRUE.equals(request.getAttribute(PEER_ATTRIBUTE));
  }

  /** A request whose peer headers are kept only when signed, with its body read ahead if it was. */
  private static final class CheckedRequest extends HttpServletRequestWrapper {

    private final boolean peer;

    private final @Nullable InputStream body;

    CheckedRequest(HttpServletRequest request, boolean peer, @Nullable InputStream body) {
      super(request);
      this.peer = peer;
      this.body = body;
    }

    @Override
    public @Nullable String getHeader(String name) {
      return hidden(name) ? null : super.getHeader(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
      return hidden(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
    }

    @Override
    public Enumeration<String> getHeaderNames() {
      List<String> names = Collections.list(super.getHeaderNames());
      names.removeIf(this::hidden);
      return Collections.enumeration(names);
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      InputStream replay = this.body;
      return replay != null ? new Replayed(replay) : super.getInputStream();
    }

    @Override
    public BufferedReader getReader() throws IOException {
      if (this.body == null) {
        return super.getReader();
      }
      String encoding = getCharacterEncoding();
      Charset charset = encoding != null ? Charset.forName(encoding) : StandardCharsets.UTF_8;
      return new BufferedReader(new InputStreamReader(getInputStream(), charset));
    }

    private boolean hidden(String name) {
      return !this.peer && PEER_HEADERS.stream().anyMatch(name::equalsIgnoreCase);
    }
  }

  /** A body read ahead, served again to whoever reads the request. */
  private static final class Replayed extends ServletInputStream {

    private final InputStream body;

    private boolean finished;

    Replayed(InputStream body) {
      this.body = body;
    }

    @Override
    public int read() throws IOException {
      int next = this.body.read();
      this.finished = next < 0;
      return next;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int read = this.body.read(buffer, offset, length);
      this.finished = read < 0;
      return read;
    }

    @Override
    public boolean isFinished() {
      return this.finished;
    }

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setReadListener(ReadListener listener) {
      throw new UnsupportedOperationException("A body read ahead is read synchronously");
    }
  }
}
