package dev.matview.web;

import dev.matview.position.ReadBound;
import dev.matview.query.ViewScanService;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.scan.SliceForm;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
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

/**
 * Serves the partition slices that the instances ask each other for while they build a scan's page
 * or stream: only a partition's owner answers, and only to another instance of the application.
 */
@RestController
@RequestMapping("${matview.web.base-path:/views}")
public class PartitionSlicesController {

  private final ViewScanService scanService;

  private final PositionedAnswers answers;

  private final SliceStreams sliceStreams = new SliceStreams();

  /**
   * A controller that reads slices through {@code scanService}, positions as {@code consistency}
   * says.
   */
  public PartitionSlicesController(ViewScanService scanService, Consistency consistency) {
    this.scanService = scanService;
    this.answers = new PositionedAnswers(consistency);
  }

  /** This instance's slice of one partition's keys, or windows whose start lies in [from, to]. */
  @GetMapping(
      path = {"/{view}/partitions/{partition}/keys", "/{view}/partitions/{partition}/windows"},
      produces = MediaType.APPLICATION_JSON_VALUE)
  public @Nullable ResponseEntity<?> slice(
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
    SliceRead read =
        RequestParameters.mappedTo(request, "windows")
            ? windows(view, partition, from, to, after)
            : (size, caller, sliceForm) ->
                this.scanService
                    .localSlices()
                    .keys(view, partition, from, to, after, size, caller, sliceForm);
    return answer(view, limit, form, request, response, read);
  }

  /** Reads the windows of {@code partition} whose start lies in [from, to], both required. */
  private SliceRead windows(
      String view,
      int partition,
      @Nullable String from,
      @Nullable String to,
      @Nullable String after) {
    Instant start = RequestParameters.requiredInstant(view, "from", from);
    Instant stop = RequestParameters.requiredInstant(view, "to", to);
    return (size, caller, sliceForm) ->
        this.scanService
            .localSlices()
            .windows(view, partition, start, stop, after, size, caller, sliceForm);
  }

  /** The slice {@code read} reads, at most {@code limit} items, or the slices streamed. */
  private @Nullable ResponseEntity<?> answer(
      String view,
      @Nullable String limit,
      @Nullable String form,
      HttpServletRequest request,
      HttpServletResponse response,
      SliceRead read) {
    int size = RequestParameters.limit(view, limit);
    CallerContext caller = this.answers.caller(request, view, ReadBound.SLICE_RECORD_PARAMETER);
    SliceForm sliceForm = SliceForm.of(view, form);
    if (sliceForm == SliceForm.STREAM) {
      return this.sliceStreams.stream(
          view, request, response, caller, () -> read.read(size, caller, sliceForm));
    }
    return this.answers.answer(
        request,
        view,
        caller,
        () -> CompletableFuture.completedFuture(read.read(size, caller, sliceForm)),
        (sliceForm == SliceForm.LINES) ? MediaType.APPLICATION_NDJSON : MediaType.APPLICATION_JSON,
        Function.identity());
  }

  /** Reads a partition's slice here. */
  @FunctionalInterface
  private interface SliceRead {

    /** The slice of at most {@code size} items that {@code caller} asks for, in {@code form}. */
    Routed<?> read(int size, CallerContext caller, SliceForm form);
  }
}
