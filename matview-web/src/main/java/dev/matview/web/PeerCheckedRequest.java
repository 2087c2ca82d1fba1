package dev.matview.web;

import dev.matview.peer.PeerRequests;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A request as {@link PeerRequestFilter} passes it on: its peer headers kept only when signed, and
 * its body, when the filter read it ahead to check it, served again.
 */
final class PeerCheckedRequest extends HttpServletRequestWrapper {

  /** The headers that mark a request as a peer's, hidden from it unless it was signed. */
  private static final List<String> PEER_HEADERS =
      List.of(PeerRequests.FORWARDED_HEADER, PeerRequests.SIGNATURE_HEADER);

  private final boolean peer;

  private final @Nullable InputStream body;

  PeerCheckedRequest(HttpServletRequest request, boolean peer, @Nullable InputStream body) {
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
