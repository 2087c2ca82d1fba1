package dev.matview.web;

import dev.matview.query.ScanMetrics;
import dev.matview.query.answer.Futures;
import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.query.scan.ScanStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/**
 * A streamed scan's lines as parts of a {@link NonBlockingBody}: each slice's item lines, then
 * {@code {"nextCursor": null}}, or, when a slice cannot be read, a last line with the cursor that
 * resumes after the items sent and the problem detail.
 */
final class ScanLineParts implements ResponseParts {

  private final String view;

  private final ScanStream stream;

  private final Supplier<CompletableFuture<Routed<Slice<ItemLines>>>> read;

  private final ScanMetrics metrics;

  private final ObjectMapper mapper;

  private @Nullable Slice<ItemLines> first;

  private boolean ended;

  /** The lines of {@code first}, then of each slice {@code read} reads. */
  ScanLineParts(
      String view,
      ScanStream stream,
      Slice<ItemLines> first,
      Supplier<CompletableFuture<Routed<Slice<ItemLines>>>> read,
      ScanMetrics metrics,
      ObjectMapper mapper) {
    this.view = view;
    this.stream = stream;
    this.first = first;
    this.read = read;
    this.metrics = metrics;
    this.mapper = mapper;
  }

  @Override
  public CompletableFuture<@Nullable List<ResponseParts.Chunk>> next() {
    if (this.ended) {
      return CompletableFuture.completedFuture(null);
    }
    Slice<ItemLines> slice = this.first;
    if (slice != null) {
      this.first = null;
      return CompletableFuture.completedFuture(lines(slice));
    }
    if (this.stream.ended()) {
      return CompletableFuture.completedFuture(lastLine(null, null));
    }
    CompletableFuture<Routed<Slice<ItemLines>>> next;
    try {
      next = this.read.get();
    } catch (RuntimeException ex) {
      return CompletableFuture.completedFuture(failed(ex));
    }
    return next.handle(
        (routed, failure) ->
            (failure != null)
                ? failed(failure)
                : (routed instanceof Routed.Local<Slice<ItemLines>> local)
                    ? lines(local.answer())
                    : lastLine(this.stream.cursor(), problemOf(routed)));
  }

  /** The item lines of {@code slice}, each counted as it is written; the scan moves past it. */
  private List<ResponseParts.Chunk> lines(Slice<ItemLines> slice) {
    List<ResponseParts.Chunk> chunks = new ArrayList<>(slice.items().size());
    for (ItemLines lines : slice.items()) {
      chunks.add(
          new ResponseParts.Chunk(
              lines.bytes(),
              lines.length(),
              () -> this.metrics.streamed(this.view, lines.count())));
    }
    this.stream.advance(slice);
    return chunks;
  }

  /** The last line: where to resume, {@code null} at the scan's end, and what stopped it. */
  private List<ResponseParts.Chunk> lastLine(@Nullable String cursor, @Nullable Object problem) {
    this.ended = true;
    Map<String, @Nullable Object> end = new LinkedHashMap<>();
    end.put("nextCursor", cursor);
    if (problem != null) {
      end.put("problem", problem);
    }
    byte[] json = this.mapper.writeValueAsBytes(end);
    byte[] line = Arrays.copyOf(json, json.length + 1);
    line[json.length] = '\n';
    return List.of(ResponseParts.Chunk.of(line));
  }

  /** The last line of a scan whose slice could not be read for {@code failure}. */
  private List<ResponseParts.Chunk> failed(Throwable failure) {
    RuntimeException cause = Futures.unwrapped(failure);
    Object problem =
        (cause instanceof ViewUnavailableException unavailable)
            ? Refusals.problem(Refusal.of(unavailable)).getBody()
            : Problems.internalError(cause).getBody();
    return lastLine(this.stream.cursor(), problem);
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
