package dev.matview.web;

import dev.matview.position.ReadBound;
import dev.matview.query.ScanMetrics;
import dev.matview.query.ViewScanService;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.scan.SliceForm;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.ObjectMapper;

/**
 * Serves scans of all keys or all windows of a view a page at a time or streamed whole, and the
 * partition slices that instances ask each other for while they build a page or a stream.
 */
@RestController
@RequestMapping("${matview.web.base-path:/views}")
public class ViewScanController {

  private final ViewScanService scanService;

  private final Consistency consistency;

  private final StreamedScans streamed;

  private final SliceStreams sliceStreams = new SliceStreams();

  private final long maxKeyBytes;

  /**
   * A controller that scans through {@code scanService}, streamed scans written by {@code mapper}.
   */
  public ViewScanController(ViewScanService scanService, ObjectMapper mapper) {
    this(scanService, Consistency.unsigned("none"), mapper, ScanMetrics.NONE);
  }

  /**
   * A controller whose pages and slices carry the positions that {@code consistency} writes, and
   * that waits as it says for a replica to apply what a request asks to see; the items of streamed
   * scans are counted in {@code metrics}.
   */
  public ViewScanController(
      ViewScanService scanService,
      Consistency consistency,
      ObjectMapper mapper,
      ScanMetrics metrics) {
    this(scanService, consistency, mapper, metrics, RequestLimits.DEFAULTS);
  }

  /** A controller as above that refuses keys in its parameters longer than {@code limits} allow. */
  public ViewScanController(
      ViewScanService scanService,
      Consistency consistency,
      ObjectMapper mapper,
      ScanMetrics metrics,
      RequestLimits limits) {
    this.scanService = scanService;
    this.consistency = consistency;
    this.streamed = new StreamedScans(consistency, mapper, metrics);
    this.maxKeyBytes = limits.maxKeyLength().toBytes();
  }

  /**
   * A page of the keys of a table view, optionally within key bounds [from, to]; or, when the
   * request accepts {@code application/x-ndjson}, all of them as one streamed response.
   */
  @GetMapping(
      path = "/{view}/keys",
      produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_NDJSON_VALUE})
  public @Nullable ResponseEntity<?> keys(
      @PathVariable String view,
      @RequestParam(required = false) @Nullable String from,
      @RequestParam(required = false) @Nullable String to,
      @RequestParam(required = false) @Nullable String limit,
      @RequestParam(required = false) @Nullable String cursor,
      @RequestParam(required = false) @Nullable String afterKey,
      HttpServletRequest request,
      HttpServletResponse response) {
    requireKeysWithinLimit(view, from, to, afterKey);
    CallerContext caller = caller(request, view, ReadBound.RECORD_PARAMETER);
    if (StreamedScans.asked(request)) {
      RequestParameters.requireNoLimit(view, limit);
      return this.streamed.stream(
          view,
          request,
          response,
          caller.bound(),
          () -> this.scanService.streams().keys(view, from, to, cursor, afterKey, caller));
    }
    RequestParameters.requireStreamed(view, "afterKey", afterKey);
    int size = RequestParameters.limit(view, limit);
    return pageAnswer(
        request, caller, () -> this.scanService.keys(view, from, to, size, cursor, caller));
  }

  /**
   * A page of the windows of a windowed or session view whose start lies in [from, to]; or, when
   * the request accepts {@code application/x-ndjson}, all of them as one streamed response.
   */
  @GetMapping(
      path = "/{view}/windows",
      produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_NDJSON_VALUE})
  public @Nullable ResponseEntity<?> windows(
      @PathVariable String view,
      @RequestParam(required = false) @Nullable String from,
      @RequestParam(required = false) @Nullable String to,
      @RequestParam(required = false) @Nullable String limit,
      @RequestParam(required = false) @Nullable String cursor,
      @RequestParam(required = false) @Nullable String afterKey,
      @RequestParam(required = false) @Nullable String afterStart,
      HttpServletRequest request,
      HttpServletResponse response) {
    @Nullable Instant start = RequestParameters.instant(view, "from", from);
    @Nullable Instant stop = RequestParameters.instant(view, "to", to);
    RequestParameters.requireKeyWithinLimit(view, "afterKey", afterKey, this.maxKeyBytes);
    CallerContext caller = caller(request, view, ReadBound.RECORD_PARAMETER);
    if (StreamedScans.asked(request)) {
      RequestParameters.requireNoLimit(view, limit);
      @Nullable Instant resumeStart = RequestParameters.instant(view, "afterStart", afterStart);
      return this.streamed.stream(
          view,
          request,
          response,
          caller.bound(),
          () ->
              this.scanService
                  .streams()
                  .windows(view, start, stop, cursor, afterKey, resumeStart, caller));
    }
    RequestParameters.requireStreamed(view, "afterKey", afterKey);
    RequestParameters.requireStreamed(view, "afterStart", afterStart);
    int size = RequestParameters.limit(view, limit);
    return pageAnswer(
        request, caller, () -> this.scanService.windows(view, start, stop, size, cursor, caller));
  }

  /**
   * This instance's slice of one partition's keys; only the partition's owner answers, and only to
   * another instance of the application.
   */
  @GetMapping(
      path = "/{view}/partitions/{partition}/keys",
      produces = MediaType.APPLICATION_JSON_VALUE)
  public @Nullable ResponseEntity<?> keySlice(
      @PathVariable String view,
      @PathVariable int partition,
      @RequestParam(required = false) @Nullable String from,
      @RequestParam(required = false) @Nullable String to,
      @RequestParam(required = false) @Nullable String after,
      @RequestParam(required = false) @Nullable String limit,
      @RequestParam(required = false) @Nullable String form,
      @RequestHeader HttpHeaders headers,
      HttpServletRequest request,
      HttpServletResponse response) {
    Callers.requirePeer(view, headers);
    int size = RequestParameters.limit(view, limit);
    CallerContext caller = caller(request, view, ReadBound.SLICE_RECORD_PARAMETER);
    SliceForm sliceForm = SliceForm.of(view, form);
    return answer(
        view,
        request,
        response,
        caller,
        () ->
            this.scanService
                .localSlices()
                .keys(view, partition, from, to, after, size, caller, sliceForm),
        sliceForm);
  }

  /**
   * This instance's slice of one partition's windows; only the partition's owner answers, and only
   * to another instance of the application.
   */
  @GetMapping(
      path = "/{view}/partitions/{partition}/windows",
      produces = MediaType.APPLICATION_JSON_VALUE)
  public @Nullable ResponseEntity<?> windowSlice(
      @PathVariable String view,
      @PathVariable int partition,
      @RequestParam(required = false) @Nullable String from,
      @RequestParam(required = false) @Nullable String to,
      @RequestParam(required = false) @Nullable String after,
      @RequestParam(required = false) @Nullable String limit,
      @RequestParam(required = false) @Nullable String form,
      @RequestHeader HttpHeaders headers,
      HttpServletRequest request,
      HttpServletResponse response) {
    Callers.requirePeer(view, headers);
    Instant start = RequestParameters.requiredInstant(view, "from", from);
    Instant stop = RequestParameters.requiredInstant(view, "to", to);
    int size = RequestParameters.limit(view, limit);
    CallerContext caller = caller(request, view, ReadBound.SLICE_RECORD_PARAMETER);
    SliceForm sliceForm = SliceForm.of(view, form);
    return answer(
        view,
        request,
        response,
        caller,
        () ->
            this.scanService
                .localSlices()
                .windows(view, partition, start, stop, after, size, caller, sliceForm),
        sliceForm);
  }

  /** Refuses a key bound or a key to resume after that is longer than a key may be. */
  private void requireKeysWithinLimit(
      String view, @Nullable String from, @Nullable String to, @Nullable String afterKey) {
    RequestParameters.requireKeyWithinLimit(view, "from", from, this.maxKeyBytes);
    RequestParameters.requireKeyWithinLimit(view, "to", to, this.maxKeyBytes);
    RequestParameters.requireKeyWithinLimit(view, "afterKey", afterKey, this.maxKeyBytes);
  }

  private CallerContext caller(HttpServletRequest request, String view, String recordParameter) {
    return Callers.from(request, view)
        .withBound(this.consistency.bound(request, view, recordParameter));
  }

  /**
   * The slice that {@code read} reads in {@code form}, with its position, or none yet while it
   * waits for one; or, streamed into {@code response}, the slices after it.
   */
  private <T> @Nullable ResponseEntity<?> answer(
      String view,
      HttpServletRequest request,
      HttpServletResponse response,
      CallerContext caller,
      Supplier<Routed<T>> read,
      SliceForm form) {
    if (form == SliceForm.STREAM) {
      return this.sliceStreams.stream(view, request, response, caller, read);
    }
    return pageAnswer(
        request,
        caller,
        () -> CompletableFuture.completedFuture(read.get()),
        (form == SliceForm.LINES) ? MediaType.APPLICATION_NDJSON : MediaType.APPLICATION_JSON);
  }

  /**
   * The answer of {@code read}, which may wait for another instance, with its position; or none yet
   * while it waits.
   */
  private <T> @Nullable ResponseEntity<?> pageAnswer(
      HttpServletRequest request,
      CallerContext caller,
      Supplier<CompletableFuture<Routed<T>>> read) {
    return pageAnswer(request, caller, read, MediaType.APPLICATION_JSON);
  }

  private <T> @Nullable ResponseEntity<?> pageAnswer(
      HttpServletRequest request,
      CallerContext caller,
      Supplier<CompletableFuture<Routed<T>>> read,
      MediaType type) {
    return this.consistency.answer(
        request,
        caller.bound(),
        read,
        (routed) ->
            Refusals.respond(
                routed,
                (page) ->
                    this.consistency
                        .withPosition(
                            ResponseEntity.ok(),
                            (routed instanceof Routed.Local<T> local) ? local.position() : null)
                        .contentType(type)
                        .body(page)));
  }
}
