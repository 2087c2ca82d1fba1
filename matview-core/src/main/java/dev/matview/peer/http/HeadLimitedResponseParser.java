package dev.matview.peer.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.impl.io.DefaultHttpResponseParser;
import org.apache.hc.core5.http.io.HttpTransportMetrics;
import org.apache.hc.core5.http.io.SessionInputBuffer;
import org.apache.hc.core5.util.CharArrayBuffer;
import org.jspecify.annotations.Nullable;

/**
 * Parses the head of a response as Apache's parser does, and fails with {@link ProtocolException}
 * once the status line and headers have taken more than {@code maxHeadBytes}, so that an answer of
 * many short headers cannot fill the heap either.
 */
final class HeadLimitedResponseParser extends DefaultHttpResponseParser {

  private final int maxHeadBytes;

  HeadLimitedResponseParser(Http1Config http1Config, int maxHeadBytes) {
    super(http1Config);
    this.maxHeadBytes = maxHeadBytes;
  }

  @Override
  public @Nullable ClassicHttpResponse parse(SessionInputBuffer buffer, InputStream inputStream)
      throws IOException, HttpException {
    return super.parse(new CountingBuffer(buffer, this.maxHeadBytes), inputStream);
  }

  /** A buffer that counts the bytes of the lines read through it, line breaks included. */
  private static final class CountingBuffer implements SessionInputBuffer {

    private final SessionInputBuffer buffer;

    private final int max;

    private int count;

    CountingBuffer(SessionInputBuffer buffer, int max) {
      this.buffer = buffer;
      this.max = max;
    }

    @Override
    public int readLine(CharArrayBuffer line, InputStream inputStream) throws IOException {
      int before = line.length();
      int read = this.buffer.readLine(line, inputStream);
      this.count += line.length() - before + 2;
      if (this.count > this.max) {
        throw new ProtocolException("A response's head is longer than " + this.max + " bytes");
      }
      return read;
    }

    @Override
    public int length() {
      return this.buffer.length();
    }

    @Override
    public int capacity() {
      return this.buffer.capacity();
    }

    @Override
    public int available() {
      return this.buffer.available();
    }

    @Override
    public int read(byte[] bytes, int offset, int length, InputStream inputStream)
        throws IOException {
      return this.buffer.read(bytes, offset, length, inputStream);
    }

    @Override
    public int read(byte[] bytes, InputStream inputStream) throws IOException {
      return this.buffer.read(bytes, inputStream);
    }

    @Override
    public int read(InputStream inputStream) throws IOException {
      return this.buffer.read(inputStream);
    }

    @Override
    public HttpTransportMetrics getMetrics() {
      return this.buffer.getMetrics();
    }
  }
}
