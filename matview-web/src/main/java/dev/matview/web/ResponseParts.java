package dev.matview.web;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/** The parts of a response that a {@link NonBlockingBody} writes, one after the other. */
@FunctionalInterface
interface ResponseParts {

  /**
   * The next part's chunks, asked once the client has taken the part before; completes with {@code
   * null} after the last part.
   */
  CompletableFuture<@Nullable List<Chunk>> next();

  /**
   * Bytes to write.
   *
   * @param bytes the bytes, possibly followed by others that are not the chunk's
   * @param length how many of them to write
   * @param written what to do once they are written
   */
  record Chunk(byte[] bytes, int length, Runnable written) {

    /** All of {@code bytes}. */
    static Chunk of(byte[] bytes) {
      return new Chunk(bytes, bytes.length, () -> {});
    }
  }
}
