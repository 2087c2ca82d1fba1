package dev.matview.web;

import dev.matview.changes.ChangeEvent;
import dev.matview.changes.ChangeSink;
import java.io.IOException;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** A change stream's events as Server-Sent Events, through Spring's {@link SseEmitter}. */
final class SseSink implements ChangeSink {

  private final SseEmitter emitter;

  SseSink(SseEmitter emitter) {
    this.emitter = emitter;
  }

  @Override
  public void send(ChangeEvent event) throws IOException {
    SseEmitter.SseEventBuilder sse = SseEmitter.event().name(event.kind().label());
    String id = event.id();
    if (id != null) {
      sse.id(id);
    }
    this.emitter.send(sse.data(event.data()));
  }

  @Override
  public void heartbeat() throws IOException {
    this.emitter.send(SseEmitter.event().comment(""));
  }

  @Override
  public void close() {
    this.emitter.complete();
  }

  @Override
  public void whenGone(Runnable onGone) {
    this.emitter.onCompletion(onGone);
    this.emitter.onError((failure) -> onGone.run());
    this.emitter.onTimeout(onGone);
  }
}
