package dev.matview.processes.http;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The status of an answer whose body is read line by line as it arrives, such as a change stream or
 * a streamed scan; closing it goes away from the answer, read or not.
 */
public interface BodyLines extends AutoCloseable {

  /** The answer's HTTP status. */
  int status();

  /**
   * The next line of the body, without its line break, or {@code null} once the body has ended.
   *
   * @throws IllegalStateException when no line came within {@code bound}
   * @throws java.io.UncheckedIOException when the connection failed before the body ended
   */
  @Nullable String next(Duration bound) throws InterruptedException;

  @Override
  void close();
}
