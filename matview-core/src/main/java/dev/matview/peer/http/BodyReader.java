package dev.matview.peer.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.EofSensorInputStream;
import org.jspecify.annotations.Nullable;

/**
 * Reads the body of a response up to a limit; a body beyond it fails with {@link
 * ProtocolException}, unread as far as its length tells it, and its connection is closed rather
 * than read to the end to be used again.
 */
final class BodyReader {

  private static final byte[] EMPTY = new byte[0];

  private final int maxBytes;

  BodyReader(int maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** The bytes of {@code entity}, empty when the response had no body. */
  byte[] read(@Nullable HttpEntity entity) throws IOException {
    if (entity == null) {
      return EMPTY;
    }
    long length = entity.getContentLength();
    try (InputStream in = entity.getContent()) {
      if (length > this.maxBytes) {
        throw tooLong(in);
      }
      if (length >= 0) {
        return in.readNBytes((int) length);
      }
      byte[] bytes = in.readNBytes(this.maxBytes + 1);
      if (bytes.length > this.maxBytes) {
        throw tooLong(in);
      }
      return bytes;
    }
  }

  private ProtocolException tooLong(InputStream in) throws IOException {
    if (in instanceof EofSensorInputStream connection) {
      connection.abort();
    }
    return new ProtocolException("A response's body is longer than " + this.maxBytes + " bytes");
  }
}
