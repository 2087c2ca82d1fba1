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
 * Answers another instance's request for a partition's slices as a stream ({@code form=stream}):
 * {@link SliceFrames} written with the Servlet API's non-blocking output ({@link NonBlockingBody}),
 * each slice read here once the instance that asked has taken the one before, so that one that
 * reads slowly holds no thread; or the refusal of the first slice as a problem detail, after which
 * that instance asks slice by slice. The stream's connection closes at its end, so that its body is
 * delimited by that end rather than in chunks: the peers' client reads a chunked body on as long as
 * it has bytes of it at hand, but holds back one delimited so as its reader asks.
 */
final class SliceStreams {

  /**
   * Streams the slices of {@code view} that {@code read} starts into {@code response}; or the
   * answer that says why the first one was not read here.
   */
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
