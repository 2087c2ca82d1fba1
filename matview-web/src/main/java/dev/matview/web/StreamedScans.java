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
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.InvalidMimeTypeException;
import tools.jackson.databind.ObjectMapper;

/**
 * Answers a scan of a whole range as one {@code application/x-ndjson} response ({@link
 * ScanLineParts}) written with the non-blocking output ({@link NonBlockingBody}), one slice held at
 * a time; when the first slice cannot be read, the answer is the problem detail a page would
 * answer.
 */
final class StreamedScans {

  private static final String NDJSON = MediaType.APPLICATION_NDJSON_VALUE;

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
      return MediaType.parseMediaTypes(accept).stream()
          .anyMatch(type -> type.equalsTypeAndSubtype(MediaType.APPLICATION_NDJSON));
    } catch (InvalidMimeTypeException ex) {
      return false;
    }
  }

  /** Streams the scan {@code start} begins into {@code response}, or answers its first refusal. */
  @Nullable ResponseEntity<?> stream(
      String view,
      HttpServletRequest request,
      HttpServletResponse response,
      ReadBound bound,
      Supplier<ScanStream> start) {
    ScanStream stream;
    try {
      stream = start.get();
    } catch (ViewUnavailableException ex) {
      return Refusals.problem(Refusal.of(ex));
    }
    Supplier<CompletableFuture<Routed<Slice<ItemLines>>>> read =
        () -> this.consistency.readLater(view, bound, stream::read);
    CompletableFuture<Routed<Slice<ItemLines>>> first = attempt(read);
    if (!first.isDone()) {
      NonBlockingBody body = NonBlockingBody.start(request, response, stream::close);
      first.whenComplete(
          (unused, failure) -> body.later(() -> begin(view, request, body, stream, read, first)));
      return null;
    }
    Routed<Slice<ItemLines>> answered;
    try {
      answered = outcome(first);
    } catch (RuntimeException ex) {
      stream.close();
      throw ex;
    }
    if (!(answered instanceof Routed.Local<Slice<ItemLines>> slice)) {
      stream.close();
      return respond(answered);
    }
    NonBlockingBody.start(request, response, stream::close)
        .write(NDJSON, parts(view, stream, read, slice.answer()));
    return null;
  }

  /** Writes the scan into {@code body} once its first slice, {@code first}, came. */
  private void begin(
      String view,
      HttpServletRequest request,
      NonBlockingBody body,
      ScanStream stream,
      Supplier<CompletableFuture<Routed<Slice<ItemLines>>>> read,
      CompletableFuture<Routed<Slice<ItemLines>>> first) {
    ResponseEntity<?> refused;
    try {
      Routed<Slice<ItemLines>> answered = outcome(first);
      if (answered instanceof Routed.Local<Slice<ItemLines>> slice) {
        body.write(NDJSON, parts(view, stream, read, slice.answer()));
        return;
      }
      refused = respond(answered);
    } catch (RuntimeException ex) {
      refused = Problems.internalError(ex);
    }
    ResponseEntity<?> answer = refused;
    body.answer((response) -> ProblemWriter.write(request, response, this.mapper, answer));
  }

  private ScanLineParts parts(
      String view,
      ScanStream stream,
      Supplier<CompletableFuture<Routed<Slice<ItemLines>>>> read,
      Slice<ItemLines> first) {
    return new ScanLineParts(view, stream, first, read, this.metrics, this.mapper);
  }

  /** What {@code read} answers, a failure it throws at once included. */
  private static CompletableFuture<Routed<Slice<ItemLines>>> attempt(
      Supplier<CompletableFuture<Routed<Slice<ItemLines>>>> read) {
    try {
      return read.get();
    } catch (RuntimeException ex) {
      return CompletableFuture.failedFuture(ex);
    }
  }

  /** The answer {@code done} completed with, a view that is not available there as a refusal. */
  private static Routed<Slice<ItemLines>> outcome(
      CompletableFuture<Routed<Slice<ItemLines>>> done) {
    try {
      return Futures.now(done);
    } catch (ViewUnavailableException ex) {
      return new Routed.Refused<>(Refusal.of(ex));
    }
  }

  /** The answer to a first slice that was not read here: a refusal's, or the one another sent. */
  private static ResponseEntity<?> respond(Routed<Slice<ItemLines>> notRead) {
    return Refusals.respond(notRead, (slice) -> ResponseEntity.internalServerError().build());
  }
}
