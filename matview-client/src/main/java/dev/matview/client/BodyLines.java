package dev.matview.client;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import org.jspecify.annotations.Nullable;

/**
 * Reads a body one line at a time as it arrives, holding no more of it than the line and one
 * buffer; a line is whole only once its {@code \n} came, so a body that ends within a line was cut
 * short.
 */
final class BodyLines {

  private final InputStream body;

  private final byte[] buffer = new byte[8192];

  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  private int position;

  private int limit;

  BodyLines(InputStream body) {
    this.body = body;
  }

  /**
   * The next line without its {@code \n}, or {@code null} at the end of the body.
   *
   * @throws EOFException when the body ends within a line
   * @throws IOException when the body cannot be read
   */
  byte @Nullable [] next() throws IOException {
    this.line.reset();
    while (true) {
      if (this.position == this.limit && !fill()) {
        if (this.line.size() == 0) {
          return null;
        }
        throw new EOFException(
            "The body ended within a line, " + this.line.size() + " bytes into it");
      }
      for (int end = this.position; end < this.limit; end++) {
        if (this.buffer[end] == '\n') {
          this.line.write(this.buffer, this.position, end - this.position);
          this.position = end + 1;
          return this.line.toByteArray();
        }
      }
      this.line.write(this.buffer, this.position, this.limit - this.position);
      this.position = this.limit;
    }
  }

  /** Reads what the body has next into the buffer: whether there was anything. */
  private boolean fill() throws IOException {
    int read = this.body.read(this.buffer);
    if (read == -1) {
      return false;
    }
    this.position = 0;
    this.limit = read;
    return true;
  }
}
