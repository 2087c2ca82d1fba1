package dev.matview.web;

import dev.matview.changes.ChangeEvent;
import dev.matview.changes.ChangeSink;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * A change stream's events as Server-Sent Events, through Spring's {@link SseEmitter}; a batch of
 * events is written with one flush.
 */
final class SseSink implements ChangeSink {

  private final SseEmitter emitter;

  SseSink(SseEmitter emitter) {
    this.emitter = emitter;
  }

  @Override
  public void send(ChangeEvent event) throws IOException {
    this.emitter.send(sse(event));
  }

  @Override
  public void send(List<ChangeEvent> events) throws IOException {
    Set<ResponseBodyEmitter.DataWithMediaType> parts = new LinkedHashSet<>();
    for (ChangeEvent event : events) {
      parts.addAll(sse(event).build());
    }
    this.emitter.send(parts);
  }

  private static SseEmitter.SseEventBuilder sse(ChangeEvent event) {
    SseEmitter.SseEventBuilder sse = SseEmitter.event().name(event.kind().label());
    String id = event.id();
    if (id != null) {
      sse.id(id);
    }
    return sse.data(event.data());
  }

  @Override
  public void heartbeat() throws IOException {
    this.emitter.send(SseEmitter.event().comment(""));
  }

  /** Completes the response, unless the container has already ended it after an error. */
  @Override
  public void close() {
    try {
      this.emitter.complete();
    } catch (IllegalStateException ex) {
      // The container already ended the request after the client went away: nothing to complete.
    }
  }

  @Override
  public void whenGone(Runnable onGone) {
    this.emitter.onCompletion(onGone);
    this.emitter.onError((failure) -> onGone.run());
    this.emitter.onTimeout(onGone);
  }
}
