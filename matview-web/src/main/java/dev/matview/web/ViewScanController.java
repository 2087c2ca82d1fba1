package dev.matview.web;

import dev.matview.position.ReadBound;
import dev.matview.query.ScanMetrics;
import dev.matview.query.ViewScanService;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.scan.ScanStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.ObjectMapper;

/** Serves scans of a view's keys or windows, a page at a time or streamed whole. */
@RestController
@RequestMapping("${matview.web.base-path:/views}")
public class ViewScanController {

  private final ViewScanService scanService;

  private final PositionedAnswers answers;

  private final StreamedScans streamed;

  private final long maxKeyBytes;

  /** A controller whose streamed scans {@code mapper} writes and {@code metrics} counts. */
  public ViewScanController(
      ViewScanService scanService,
      Consistency consistency,
      ObjectMapper mapper,
      ScanMetrics metrics,
      RequestLimits limits) {
    this.scanService = scanService;
    this.answers = new PositionedAnswers(consistency);
    this.streamed = new StreamedScans(consistency, mapper, metrics);
    this.maxKeyBytes = limits.maxKeyLength().toBytes();
  }

  /** A page of a view's keys or windows in [from, to], or all of them as {@code x-ndjson}. */
  @GetMapping(
      path = {"/{view}/keys", "/{view}/windows"},
      produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_NDJSON_VALUE})
  public @Nullable ResponseEntity<?> scan(
      @PathVariable String view,
      @RequestParam(required = false) @Nullable String from,
      @RequestParam(required = false) @Nullable String to,
      @RequestParam(required = false) @Nullable String limit,
      @RequestParam(required = false) @Nullable String cursor,
      @RequestParam(required = false) @Nullable String afterKey,
      @RequestParam(required = false) @Nullable String afterStart,
      HttpServletRequest request,
      HttpServletResponse response) {
    boolean windows = RequestParameters.mappedTo(request, "windows");
    Scan<?> scan =
        windows
            ? windows(view, from, to, cursor, afterKey, afterStart)
            : keys(view, from, to, cursor, afterKey);
    return answer(view, limit, afterKey, windows ? afterStart : null, request, response, scan);
  }

  private Scan<?> keys(
      String view,
      @Nullable String from,
      @Nullable String to,
      @Nullable String cursor,
      @Nullable String afterKey) {
    RequestParameters.requireKeyWithinLimit(view, "from", from, this.maxKeyBytes);
    RequestParameters.requireKeyWithinLimit(view, "to", to, this.maxKeyBytes);
    RequestParameters.requireKeyWithinLimit(view, "afterKey", afterKey, this.maxKeyBytes);
    return new Scan<>(
        (caller) -> this.scanService.streams().keys(view, from, to, cursor, afterKey, caller),
        (size, caller) -> this.scanService.keys(view, from, to, size, cursor, caller));
  }

  private Scan<?> windows(
      String view,
      @Nullable String from,
      @Nullable String to,
      @Nullable String cursor,
      @Nullable String afterKey,
      @Nullable String afterStart) {
    @Nullable Instant start = RequestParameters.instant(view, "from", from);
    @Nullable Instant stop = RequestParameters.instant(view, "to", to);
    RequestParameters.requireKeyWithinLimit(view, "afterKey", afterKey, this.maxKeyBytes);
    return new Scan<>(
        (caller) ->
            this.scanService
                .streams()
                .windows(
                    view,
                    start,
                    stop,
                    cursor,
                    afterKey,
                    RequestParameters.instant(view, "afterStart", afterStart),
                    caller),
        (size, caller) -> this.scanService.windows(view, start, stop, size, cursor, caller));
  }

  /** {@code scan} streamed into {@code response}, or a page of at most {@code limit} items. */
  private <T> @Nullable ResponseEntity<?> answer(
      String view,
      @Nullable String limit,
      @Nullable String afterKey,
      @Nullable String afterStart,
      HttpServletRequest request,
      HttpServletResponse response,
      Scan<T> scan) {
    CallerContext caller = this.answers.caller(request, view, ReadBound.RECORD_PARAMETER);
    if (StreamedScans.asked(request)) {
      RequestParameters.requireNoLimit(view, limit);
      return this.streamed.stream(
          view, request, response, caller.bound(), () -> scan.whole().apply(caller));
    }
    RequestParameters.requireStreamed(view, "afterKey", afterKey);
    RequestParameters.requireStreamed(view, "afterStart", afterStart);
    int size = RequestParameters.limit(view, limit);
    return this.answers.answer(
        request,
        view,
        caller,
        () -> scan.page().apply(size, caller),
        MediaType.APPLICATION_JSON,
        Function.identity());
  }

  /** A scan a request asks for: {@code whole} streams all items, {@code page} reads a page. */
  private record Scan<T>(
      Function<CallerContext, ScanStream> whole,
      BiFunction<Integer, CallerContext, CompletableFuture<Routed<T>>> page) {}
}
