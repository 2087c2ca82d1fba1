package dev.matview.web;

import dev.matview.query.answer.Futures;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.util.function.ThrowingConsumer;

/**
 * A response written part after part with the Servlet API's non-blocking output: the next part is
 * asked for only once the client has taken the one before, so a slow client slows the parts down,
 * only one is held, and no thread waits for a part or for the client.
 */
final class NonBlockingBody implements WriteListener {

  private static final Log logger = LogFactory.getLog(NonBlockingBody.class);

  private final AsyncResponse async;

  private final Runnable ended;

  private final AtomicBoolean over = new AtomicBoolean();

  private final ArrayDeque<ResponseParts.Chunk> pending = new ArrayDeque<>();

  private @Nullable ServletOutputStream out;

  private @Nullable ResponseParts parts;

  /** A part was asked for and has not come yet. */
  private boolean asking;

  /** Every part came. */
  private boolean lastCame;

  private boolean unflushed;

  private NonBlockingBody(AsyncResponse async, Runnable ended) {
    this.async = async;
    this.ended = ended;
  }

  /** Takes {@code request} asynchronous, without a timeout; {@code ended} runs once it is over. */
  static NonBlockingBody start(
      HttpServletRequest request, HttpServletResponse response, Runnable ended) {
    AsyncResponse async = AsyncResponse.start(request, response);
    NonBlockingBody body = new NonBlockingBody(async, ended);
    async.whenOver(() -> body.end(false), () -> body.end(true));
    return body;
  }

  /** Runs {@code step} on a container thread, unless the response is over. */
  void later(Runnable step) {
    try {
      this.async.run(step);
    } catch (IllegalStateException ex) {
      end(true);
    }
  }

  /** Answers 200 with {@code contentType} and writes {@code parts} as the client takes them. */
  void write(String contentType, ResponseParts parts) {
    HttpServletResponse response = this.async.response();
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType(contentType);
    try {
      ServletOutputStream stream = response.getOutputStream();
      synchronized (this) {
        this.out = stream;
        this.parts = parts;
      }
      stream.setWriteListener(this);
    } catch (IOException | RuntimeException ex) {
      logger.debug("A streamed response could not start: " + ex);
      end(true);
    }
  }

  /** Answers with what {@code answer} writes into the response, at once, and ends it. */
  void answer(ThrowingConsumer<HttpServletResponse> answer) {
    try {
      answer.accept(this.async.response());
    } catch (RuntimeException ex) {
      logger.debug("An answer could not be written: " + ex);
    }
    end(true);
  }

  @Override
  public void onWritePossible() {
    CompletableFuture<@Nullable List<ResponseParts.Chunk>> asked = ask();
    while (asked != null && asked.isDone()) {
      asked = took(asked) ? ask() : null;
    }
    if (asked != null) {
      CompletableFuture<@Nullable List<ResponseParts.Chunk>> waited = asked;
      waited.whenComplete(
          (chunks, failure) ->
              later(
                  () -> {
                    if (took(waited)) {
                      onWritePossible();
                    }
                  }));
    }
  }

  /**
   * Writes what waits; then the next part asked for, or {@code null} when none may be asked now.
   */
  private @Nullable CompletableFuture<@Nullable List<ResponseParts.Chunk>> ask() {
    synchronized (this) {
      ServletOutputStream stream = this.out;
      ResponseParts from = this.parts;
      if (this.over.get() || stream == null || from == null || this.asking) {
        return null;
      }
      try {
        if (!written(stream)) {
          return null;
        }
        if (!this.lastCame) {
          this.asking = true;
          return from.next();
        }
      } catch (IOException ex) {
        logger.debug("The client of a streamed response went away: " + ex);
      } catch (RuntimeException ex) {
        logger.error("A streamed response failed", ex);
      }
    }
    end(true);
    return null;
  }

  /** Writes what waits while the client takes it, then flushes: whether all of it is out. */
  private boolean written(ServletOutputStream stream) throws IOException {
    while (!this.pending.isEmpty()) {
      if (!stream.isReady()) {
        return false;
      }
      ResponseParts.Chunk chunk = this.pending.poll();
      stream.write(chunk.bytes(), 0, chunk.length());
      chunk.written().run();
      this.unflushed = true;
    }
    if (!stream.isReady()) {
      return false;
    }
    if (this.unflushed) {
      this.unflushed = false;
      stream.flush();
      return stream.isReady();
    }
    return true;
  }

  /** Takes the part that {@code done} came with: whether to go on writing. */
  private boolean took(CompletableFuture<@Nullable List<ResponseParts.Chunk>> done) {
    List<ResponseParts.Chunk> chunks;
    try {
      chunks = Futures.now(done);
    } catch (RuntimeException ex) {
      logger.error("A streamed response failed", ex);
      end(true);
      return false;
    }
    synchronized (this) {
      this.asking = false;
      if (chunks == null) {
        this.lastCame = true;
      } else {
        this.pending.addAll(chunks);
      }
    }
    return !this.over.get();
  }

  @Override
  public void onError(Throwable failure) {
    logger.debug("The client of a streamed response went away: " + failure);
    end(true);
  }

  /**
   * The response is over: what it held goes, once, and, when {@code complete}, it ends, also when
   * it was over already: an error's listener that does not end it has the container dispatch the
   * request to its error page.
   */
  private void end(boolean complete) {
    if (this.over.compareAndSet(false, true)) {
      synchronized (this) {
        this.pending.clear();
      }
      this.ended.run();
    }
    if (complete) {
      this.async.complete();
    }
  }
}
