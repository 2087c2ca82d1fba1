package dev.matview.peer.http;

import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hc.client5.http.async.methods.AbstractBinResponseConsumer;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.util.ByteArrayBuffer;
import org.jspecify.annotations.Nullable;

/**
 * Reads an answer as it arrives, up to a limit on its body: a body beyond it fails the exchange
 * with {@link ProtocolException}, and its connection is closed rather than read to the end.
 */
final class BoundedResponseConsumer extends AbstractBinResponseConsumer<PeerHttpResponse> {

  private static final int CHUNK = 8 * 1024;

  private final int maxBytes;

  private int status;

  private Map<String, List<String>> headers = Map.of();

  private @Nullable ByteArrayBuffer body;

  BoundedResponseConsumer(int maxBytes) {
    this.maxBytes = maxBytes;
  }

  @Override
  protected void start(HttpResponse response, @Nullable ContentType contentType)
      throws ProtocolException {
    this.status = response.getCode();
    Map<String, List<String>> named = new LinkedHashMap<>();
    for (Header header : response.getHeaders()) {
      named.computeIfAbsent(header.getName(), (name) -> new ArrayList<>(1)).add(header.getValue());
    }
    this.headers = named;
    Header length = response.getFirstHeader("Content-Length");
    if (length != null && parsedLength(length.getValue()) > this.maxBytes) {
      throw tooLong();
    }
    this.body = new ByteArrayBuffer(CHUNK);
  }

  @Override
  protected int capacityIncrement() {
    return CHUNK;
  }

  @Override
  protected void data(ByteBuffer data, boolean endOfStream) throws ProtocolException {
    ByteArrayBuffer read = this.body;
    if (read == null) {
      return;
    }
    if (read.length() + data.remaining() > this.maxBytes) {
      throw tooLong();
    }
    read.append(data);
  }

  @Override
  protected PeerHttpResponse buildResult() {
    ByteArrayBuffer read = this.body;
    return new PeerHttpResponse(
        this.status, this.headers, (read != null) ? read.toByteArray() : new byte[0]);
  }

  @Override
  public void releaseResources() {
    this.body = null;
  }

  private static long parsedLength(String value) {
    try {
      return Long.parseLong(value.strip());
    } catch (NumberFormatException ex) {
      return -1;
    }
  }

  private ProtocolException tooLong() {
    return new ProtocolException("A response's body is longer than " + this.maxBytes + " bytes");
  }
}
