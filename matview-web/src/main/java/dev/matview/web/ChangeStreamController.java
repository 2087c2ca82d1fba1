package dev.matview.web;

import dev.matview.changes.ChangeStreams;
import dev.matview.query.routing.CallerContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Serves the changes of a view or a key as Server-Sent Events, each with its position as its id
 * ({@code Last-Event-ID} resumes after it), holding no thread; the mappings also produce problem
 * details, so a refusal answers one even to a client that accepts only {@code text/event-stream}.
 */
@RestController
@RequestMapping("${matview.web.base-path:/views}")
public class ChangeStreamController {

  private final ChangeStreams streams;

  private final long maxKeyBytes;

  private final int maxPendingEvents;

  /** A controller whose responses hold at most {@code maxPendingEvents} events not yet taken. */
  public ChangeStreamController(ChangeStreams streams, RequestLimits limits, int maxPendingEvents) {
    this.streams = streams;
    this.maxKeyBytes = limits.maxKeyLength().toBytes();
    this.maxPendingEvents = maxPendingEvents;
  }

  /**
   * The changes of every key of a view, from now on, or of one key, in the path or, for any key, in
   * the query parameter {@code key}.
   */
  @GetMapping(
      path = {"/{view}/changes", "/{view}/keys/{key}/changes", "/{view}/key/changes"},
      produces = {
        MediaType.TEXT_EVENT_STREAM_VALUE,
        MediaType.APPLICATION_PROBLEM_JSON_VALUE,
        MediaType.APPLICATION_JSON_VALUE
      })
  public void changes(
      @PathVariable String view,
      @RequestHeader(name = "Last-Event-ID", required = false) @Nullable String lastEventId,
      HttpServletRequest request,
      HttpServletResponse response) {
    boolean ofView = RequestParameters.mappedTo(request, "{view}/changes");
    String key = ofView ? null : RequestParameters.key(request, view, 1, this.maxKeyBytes);
    SseSink sink = new SseSink(this.maxPendingEvents);
    CallerContext caller = Callers.from(request, view);
    if (key == null) {
      this.streams.openView(view, lastId(lastEventId), caller, sink);
    } else {
      this.streams.openKey(view, key, lastId(lastEventId), caller, sink);
    }
    sink.attach(request, response);
  }

  private static @Nullable String lastId(@Nullable String lastEventId) {
    return (lastEventId != null && !lastEventId.isBlank()) ? lastEventId.strip() : null;
  }
}
