package dev.matview.peer.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.jspecify.annotations.Nullable;

/**
 * Reads an answer's body as it arrives, on the asynchronous client's I/O thread, and says when it
 * can take more: no more bytes are read from the connection until it does. Of {@link #ended} and
 * {@link #failed}, exactly one is called, once.
 */
public interface BodyListener {

  /** The answer's status and {@code Content-Type} arrived. */
  void head(int status, @Nullable String contentType);

  /**
   * Takes every byte of {@code bytes}; the client reads more from the connection once {@code more}
   * has run, at once or later on any thread; throws {@link IOException} to end the exchange and
   * close its connection.
   */
  void data(ByteBuffer bytes, Runnable more) throws IOException;

  /** The body ended. */
  void ended();

  /**
   * The exchange failed: the instance could not be reached, no byte of the answer arrived within
   * the exchange's timeout, or the connection broke.
   */
  void failed(Exception failure);
}
