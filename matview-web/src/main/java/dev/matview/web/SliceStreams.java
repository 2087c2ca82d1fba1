package dev.matview.web;

import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.scan.SliceFrames;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;

/**
 * Answers another instance's request for a partition's slices as a stream ({@code form=stream}):
 * {@link SliceFrames} written as each slice is read, or the refusal of the first slice as a problem
 * detail, after which that instance asks slice by slice.
 */
final class SliceStreams {

  private static final Log logger = LogFactory.getLog(SliceStreams.class);

  /**
   * Streams the slices of {@code view} that {@code read} starts into {@code response}; or the
   * answer that says why the first one was not read here.
   */
  <T> @Nullable ResponseEntity<?> stream(
      String view, HttpServletResponse response, CallerContext caller, Supplier<Routed<T>> read) {
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
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType(SliceFrames.TYPE);
    try {
      frames.writeTo(response.getOutputStream());
    } catch (IOException ex) {
      logger.debug("The instance that asked for a stream of slices went away: " + ex.getMessage());
    }
    return null;
  }
}
