package dev.matview.web;

import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.scan.SliceFrames;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

/**
 * Answers another instance's request for a partition's slices as a stream ({@code form=stream}) of
 * {@link SliceFrames}, each slice read once the one before was taken, or the first slice's refusal
 * as a problem detail; the connection closes at the end, since the peers' client reads only a body
 * so delimited as its reader asks.
 */
final class SliceStreams {

  /** Streams the slices {@code read} starts, or answers the first one's refusal. */
  <T> @Nullable ResponseEntity<?> stream(
      String view,
      HttpServletRequest request,
      HttpServletResponse response,
      CallerContext caller,
      Supplier<Routed<T>> read) {
    if (caller.bound().isBound()) {
      throw new InvalidQueryException(
          view,
          "form",
          "A stream of slices does not wait for a position: ask for one slice at a time instead");
    }
    Routed<T> first = read.get();
    if (!(first instanceof Routed.Local<T> local
        && local.answer() instanceof SliceFrames<?> frames)) {
      return Refusals.respond(first, (answer) -> ResponseEntity.internalServerError().build());
    }
    response.setHeader(HttpHeaders.CONNECTION, "close");
    NonBlockingBody.start(request, response, () -> {})
        .write(SliceFrames.TYPE, () -> CompletableFuture.completedFuture(chunks(frames.next())));
    return null;
  }

  private static @Nullable List<ResponseParts.Chunk> chunks(SliceFrames.@Nullable Frame frame) {
    return (frame != null)
        ? List.of(ResponseParts.Chunk.of(frame.length()), ResponseParts.Chunk.of(frame.body()))
        : null;
  }
}
