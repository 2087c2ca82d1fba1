package dev.matview.web;

import dev.matview.position.ReadBound;
import dev.matview.query.ScanMetrics;
import dev.matview.query.answer.Futures;
import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.query.scan.ScanStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.InvalidMimeTypeException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/**
 * Answers a scan of a whole range as one response, {@code application/x-ndjson}: each item on a
 * line of its own as a page holds it, written as its partition slice is read, then a last line
 * {@code {"nextCursor": null}}. When a partition cannot be read after items were sent, the last
 * line carries the cursor that resumes right after them and the problem detail that stopped it.
 * Only one slice is held at a time: a client that reads slowly slows the scan down, and one that
 * stops reading holds the request until the server's write timeout.
 */
final class StreamedScans {

  private static final Log logger = LogFactory.getLog(StreamedScans.class);

  private final Consistency consistency;

  private final ObjectMapper mapper;

  private final ScanMetrics metrics;

  StreamedScans(Consistency consistency, ObjectMapper mapper, ScanMetrics metrics) {
    this.consistency = consistency;
    this.mapper = mapper;
    this.metrics = metrics;
  }

  /** Whether {@code request} names {@code application/x-ndjson} among the types it accepts. */
  static boolean asked(HttpServletRequest request) {
    String accept = request.getHeader(HttpHeaders.ACCEPT);
    if (accept == null || !accept.contains("ndjson")) {
      return false;
    }
    try {
      List<MediaType> types = MediaType.parseMediaTypes(accept);
      return types.stream()
          .anyMatch(type -> type.equalsTypeAndSubtype(MediaType.APPLICATION_NDJSON));
    } catch (InvalidMimeTypeException ex) {
      return false;
    }
  }

  /**
   * Streams the scan that {@code start} begins; or the problem detail that answers instead when its
   * first slice cannot be read.
   */
  @Nullable ResponseEntity<?> stream(
      String view, HttpServletResponse response, ReadBound bound, Supplier<ScanStream> start) {
    ScanStream stream;
    try {
      stream = start.get();
    } catch (ViewUnavailableException ex) {
      return Refusals.problem(Refusal.of(ex));
    }
    try (stream) {
      return stream(view, response, bound, stream);
    }
  }

  private @Nullable ResponseEntity<?> stream(
      String view, HttpServletResponse response, ReadBound bound, ScanStream stream) {
    Routed<Slice<ItemLines>> first = read(stream, bound);
    if (!(first instanceof Routed.Local<Slice<ItemLines>> firstSlice)) {
      return Refusals.respond(first, (slice) -> ResponseEntity.internalServerError().build());
    }
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType(MediaType.APPLICATION_NDJSON_VALUE);
    try {
      OutputStream out = response.getOutputStream();
      write(view, out, stream, firstSlice.answer());
      while (!stream.ended()) {
        Routed<Slice<ItemLines>> next = read(stream, bound);
        if (!(next instanceof Routed.Local<Slice<ItemLines>> slice)) {
          writeEnd(out, stream.cursor(), problemOf(next));
          return null;
        }
        write(view, out, stream, slice.answer());
      }
      writeEnd(out, null, null);
    } catch (IOException ex) {
      logger.debug("A streamed scan's client went away: " + ex.getMessage());
    }
    return null;
  }

  private Routed<Slice<ItemLines>> read(ScanStream stream, ReadBound bound) {
    try {
      return this.consistency.readLater(bound, stream::read).join();
    } catch (RuntimeException ex) {
      RuntimeException cause = Futures.unwrapped(ex);
      if (cause instanceof ViewUnavailableException unavailable) {
        return new Routed.Refused<>(Refusal.of(unavailable));
      }
      throw cause;
    }
  }

  private void write(String view, OutputStream out, ScanStream stream, Slice<ItemLines> slice)
      throws IOException {
    for (ItemLines lines : slice.items()) {
      out.write(lines.bytes(), 0, lines.length());
      this.metrics.streamed(view, lines.count());
    }
    stream.advance(slice);
  }

  private void writeEnd(OutputStream out, @Nullable String cursor, @Nullable Object problem)
      throws IOException {
    Map<String, @Nullable Object> end = new LinkedHashMap<>();
    end.put("nextCursor", cursor);
    if (problem != null) {
      end.put("problem", problem);
    }
    out.write(this.mapper.writeValueAsBytes(end));
    out.write('\n');
    out.flush();
  }

  /** The problem detail of a slice that was not read: a refusal's, or the one another sent. */
  private @Nullable Object problemOf(Routed<Slice<ItemLines>> notRead) {
    if (notRead instanceof Routed.Refused<Slice<ItemLines>> refused) {
      return Refusals.problem(refused.refusal()).getBody();
    }
    if (notRead instanceof Routed.Relayed<Slice<ItemLines>> relayed) {
      try {
        return this.mapper.readTree(relayed.response().body());
      } catch (JacksonException ex) {
        return Map.of("status", relayed.response().status());
      }
    }
    return null;
  }
}
