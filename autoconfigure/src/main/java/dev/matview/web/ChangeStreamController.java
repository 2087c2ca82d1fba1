package dev.matview.web;

import dev.matview.changes.ChangeStreams;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Serves the changes of a view's key as Server-Sent Events: the current value, then each new one as
 * the aggregate changes, each event with its position as its id; {@code Last-Event-ID} goes on
 * after the event it names. The stream holds no thread while it waits for changes. The mapping
 * names no media type it produces, so that a refusal can still answer a problem detail to a client
 * that accepts only {@code text/event-stream}.
 */
@RestController
@RequestMapping("${matview.web.base-path:/views}")
public class ChangeStreamController {

  /** A stream lasts until the client, the partition or the instance ends it. */
  private static final long NO_TIMEOUT = 0L;

  private final ChangeStreams streams;

  private final long maxKeyBytes;

  /** A controller that opens streams with {@code streams}, refusing keys over {@code limits}. */
  public ChangeStreamController(ChangeStreams streams, RequestLimits limits) {
    this.streams = streams;
    this.maxKeyBytes = limits.maxKeyLength().toBytes();
  }

  /** The changes of one key. */
  @GetMapping(path = "/{view}/keys/{key}/changes")
  public SseEmitter keyChanges(
      @PathVariable String view,
      @RequestHeader(name = "Last-Event-ID", required = false) @Nullable String lastEventId,
      HttpServletRequest request) {
    String key = RequestParameters.pathKey(request, view, 1, this.maxKeyBytes);
    SseEmitter emitter = new SseEmitter(NO_TIMEOUT);
    this.streams.openKey(
        view,
        key,
        (lastEventId != null && !lastEventId.isBlank()) ? lastEventId.strip() : null,
        Callers.from(request, view),
        new SseSink(emitter));
    return emitter;
  }

  /** The changes of every key of a view, from now on. */
  @GetMapping(path = "/{view}/changes")
  public SseEmitter viewChanges(
      @PathVariable String view,
      @RequestHeader(name = "Last-Event-ID", required = false) @Nullable String lastEventId,
      HttpServletRequest request) {
    SseEmitter emitter = new SseEmitter(NO_TIMEOUT);
    this.streams.openView(
        view,
        (lastEventId != null && !lastEventId.isBlank()) ? lastEventId.strip() : null,
        Callers.from(request, view),
        new SseSink(emitter));
    return emitter;
  }
}
