package dev.matview.web;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/** The parts of a response that a {@link NonBlockingBody} writes, one after the other. */
@FunctionalInterface
interface ResponseParts {

  /** The next part's chunks, once the part before was taken; {@code null} after the last part. */
  CompletableFuture<@Nullable List<Chunk>> next();

  /** The first {@code length} of {@code bytes} to write, and what to do once they are written. */
  record Chunk(byte[] bytes, int length, Runnable written) {

    /** All of {@code bytes}. */
    static Chunk of(byte[] bytes) {
      return new Chunk(bytes, bytes.length, () -> {});
    }
  }
}
