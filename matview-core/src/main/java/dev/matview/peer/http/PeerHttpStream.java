package dev.matview.peer.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.EofSensorInputStream;
import org.jspecify.annotations.Nullable;

/**
 * An answer of another instance whose body is read as it arrives. Closing it after the whole body
 * was read gives its connection back to the pool; closing it earlier closes the connection.
 */
public final class PeerHttpStream implements AutoCloseable {

  private final ClassicHttpResponse response;

  private final EndSensingStream body;

  PeerHttpStream(ClassicHttpResponse response) throws IOException {
    this.response = response;
    HttpEntity entity = response.getEntity();
    this.body =
        new EndSensingStream(
            (entity != null) ? entity.getContent() : InputStream.nullInputStream());
  }

  /** The HTTP status. */
  public int status() {
    return this.response.getCode();
  }

  /** The first value of header {@code name}, whatever its case, or {@code null}. */
  public @Nullable String header(String name) {
    Header header = this.response.getFirstHeader(name);
    return (header != null) ? header.getValue() : null;
  }

  /** The body, read as it arrives; each read waits at most the exchange's timeout. */
  public InputStream body() {
    return this.body;
  }

  /**
   * Gives the connection back when the body was read to its end, else closes it without reading the
   * rest.
   */
  @Override
  public void close() {
    try {
      if (!this.body.ended && this.body.raw() instanceof EofSensorInputStream connection) {
        connection.abort();
      }
      this.response.close();
    } catch (IOException ex) {
      // Closing a connection that failed leaves nothing to give back.
    }
  }

  /** A body that tells whether it was read to its end. */
  private static final class EndSensingStream extends FilterInputStream {

    private volatile boolean ended;

    EndSensingStream(InputStream in) {
      super(in);
    }

    InputStream raw() {
      return this.in;
    }

    @Override
    public int read() throws IOException {
      int read = super.read();
      this.ended |= read < 0;
      return read;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
      int read = super.read(bytes, offset, length);
      this.ended |= read < 0;
      return read;
    }

    @Override
    public void close() {
      // The response is closed instead, so that an unread rest is not read to reuse the connection.
    }
  }
}
