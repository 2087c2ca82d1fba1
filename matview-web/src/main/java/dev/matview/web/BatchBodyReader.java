package dev.matview.web;

import dev.matview.query.RequestJson;
import dev.matview.query.answer.InvalidQueryException;
import jakarta.servlet.http.HttpServletRequest;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;

/**
 * Reads the keys of a batch lookup from its body, never more than the body limit, refusing a body
 * that names a field twice in one object ({@link RequestJson}).
 */
final class BatchBodyReader {

  private static final String EXPECTED = "a JSON object like {\"keys\": [\"a\", \"b\"]}";

  private final ObjectReader reader;

  private final long maxBodyBytes;

  private final long maxKeyBytes;

  BatchBodyReader(ObjectMapper mapper, RequestLimits limits) {
    this.reader = RequestJson.reader(mapper);
    this.maxBodyBytes = limits.maxBatchBody().toBytes();
    this.maxKeyBytes = limits.maxKeyLength().toBytes();
  }

  /** The keys of the batch, each checked against the key length limit. */
  List<JsonNode> keys(String view, HttpServletRequest request) {
    return keys(view, body(view, request));
  }

  /** The body of the batch, read within the body size limit. */
  JsonNode body(String view, HttpServletRequest request) {
    long declared = request.getContentLengthLong();
    if (declared > this.maxBodyBytes) {
      throw new BodyTooLargeException(view, this.maxBodyBytes, declared);
    }
    JsonNode body;
    try (InputStream in = new BoundedInputStream(request.getInputStream(), this.maxBodyBytes)) {
      body = this.reader.readTree(in);
    } catch (JacksonException ex) {
      if (causedByLimit(ex)) {
        throw new BodyTooLargeException(view, this.maxBodyBytes, -1);
      }
      throw new InvalidQueryException(
          view, "body", "The body must be " + EXPECTED + ": " + ex.getOriginalMessage());
    } catch (LimitReachedException ex) {
      throw new BodyTooLargeException(view, this.maxBodyBytes, -1);
    } catch (IOException ex) {
      throw new InvalidQueryException(
          view, "body", "The body could not be read to its end: " + ex.getMessage());
    }
    if (body == null) {
      throw new InvalidQueryException(view, "keys", "The body must be " + EXPECTED);
    }
    return body;
  }

  /** The keys of {@code body}, each checked against the key length limit. */
  List<JsonNode> keys(String view, JsonNode body) {
    JsonNode keys = body.get("keys");
    if (keys == null || !keys.isArray()) {
      throw new InvalidQueryException(view, "keys", "The body must be " + EXPECTED);
    }
    List<JsonNode> list = new ArrayList<>(keys.size());
    for (JsonNode key : keys) {
      long length = length(key);
      if (length > this.maxKeyBytes) {
        throw new InvalidQueryException(
            view,
            "keys",
            "Key "
                + list.size()
                + " of the batch is "
                + length
                + " bytes long (UTF-8); keys may be at most "
                + this.maxKeyBytes
                + " bytes (matview.web.max-key-length)");
      }
      list.add(key);
    }
    return list;
  }

  private static long length(JsonNode key) {
    String text = key.isString() ? key.asString() : key.toString();
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  private static boolean causedByLimit(Throwable ex) {
    for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
      if (cause instanceof LimitReachedException) {
        return true;
      }
    }
    return false;
  }

  /** The body went past the limit while it was read. */
  private static final class LimitReachedException extends IOException {

    LimitReachedException() {
      super("The body is larger than the limit");
    }
  }

  /** Reads at most a limit of bytes of a stream and fails when the stream has more. */
  private static final class BoundedInputStream extends FilterInputStream {

    private long remaining;

    BoundedInputStream(InputStream in, long limit) {
      super(in);
      this.remaining = limit;
    }

    @Override
    public int read() throws IOException {
      int next = super.read();
      if (next >= 0) {
        count(1);
      }
      return next;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int read = super.read(buffer, offset, (int) Math.min(length, this.remaining + 1));
      if (read > 0) {
        count(read);
      }
      return read;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(Math.min(n, this.remaining + 1));
      count(skipped);
      return skipped;
    }

    private void count(long bytes) throws LimitReachedException {
      this.remaining -= bytes;
      if (this.remaining < 0) {
        throw new LimitReachedException();
      }
    }

    @Override
    public boolean markSupported() {
      return false;
    }
  }
}
