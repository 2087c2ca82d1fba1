package dev.matview.web;

import dev.matview.peer.PeerTrust;
import dev.matview.position.PositionTokens;
import dev.matview.position.ReadBound;
import dev.matview.position.ViewPosition;
import dev.matview.query.answer.Futures;
import dev.matview.query.answer.Routed;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.WebAsyncUtils;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Positions over HTTP: reads what a request asks its answer to include (the {@value
 * #POSITION_HEADER} header, {@code position=} and {@code after=}), writes the position an answer
 * carries, and lets a lookup whose replica here is behind wait for it without a thread, at most
 * {@code matview.consistency.max-wait}.
 */
public final class Consistency {

  /** The header that carries a position, on answers and on requests that send one back. */
  public static final String POSITION_HEADER = PositionTokens.HEADER;

  /** The most {@code after=} records one request may name. */
  public static final int MAX_RECORDS = 100;

  /** How long a forwarded lookup may take beyond its wait, unless told otherwise. */
  public static final Duration DEFAULT_FORWARDING_TIMEOUT = Duration.ofSeconds(2);

  /** How much longer than its wait the container lets a waiting request run. */
  private static final Duration ASYNC_MARGIN = Duration.ofSeconds(5);

  private final PositionTokens tokens;

  private final Duration maxWait;

  private final Duration routingTime;

  private final RequestBounds bounds;

  /** The waits of lookups behind what they ask, or {@code null} when none may wait. */
  private final @Nullable BoundWaits waits;

  private final WrittenFirst writtenFirst;

  /**
   * Positions written and read with {@code tokens}; a lookup waits at most {@code maxWait} (on
   * {@code timer}, asked again on {@code workers}) plus {@code routingTime} when routed to other
   * instances, and one that names records with {@code after=} starts once {@code written} tells
   * they are written.
   */
  public Consistency(
      PositionTokens tokens,
      Duration maxWait,
      Duration routingTime,
      ScheduledExecutorService timer,
      Executor workers,
      WrittenRecords written) {
    this(tokens, maxWait, routingTime, new BoundWaits(timer, workers), written, workers);
  }

  private Consistency(
      PositionTokens tokens,
      Duration maxWait,
      Duration routingTime,
      @Nullable BoundWaits waits,
      WrittenRecords written,
      Executor workers) {
    this.tokens = tokens;
    this.maxWait = maxWait;
    this.routingTime = routingTime;
    this.waits = waits;
    this.writtenFirst = new WrittenFirst(written, workers);
    this.bounds = new RequestBounds(tokens, maxWait);
  }

  /** Positions no instance can sign: answers carry none, any sent is refused, no lookup waits. */
  public static Consistency unsigned(String applicationId) {
    return new Consistency(
        new PositionTokens(PeerTrust.pending(), applicationId),
        Duration.ZERO,
        DEFAULT_FORWARDING_TIMEOUT,
        null,
        WrittenRecords.UNCHECKED,
        Runnable::run);
  }

  /** Reads what a request asks its answer to include. */
  RequestBounds bounds() {
    return this.bounds;
  }

  /** {@code response} with the {@value #POSITION_HEADER} of {@code position}, when known. */
  ResponseEntity.BodyBuilder withPosition(
      ResponseEntity.BodyBuilder response, @Nullable ViewPosition position) {
    String token = (position != null) ? this.tokens.write(position) : null;
    return (token != null) ? response.header(POSITION_HEADER, token) : response;
  }

  /**
   * The response to {@code attempt}'s answer, or {@code null} while the request waits
   * asynchronously for it and for a replica here to apply what {@code bound} asks; an answer read
   * here carries its position merged with the one {@code bound} sent back, so a caller keeps what
   * it has seen of every partition.
   */
  <T> @Nullable ResponseEntity<?> answer(
      HttpServletRequest request,
      String view,
      ReadBound bound,
      Supplier<CompletableFuture<Routed<T>>> attempt,
      Function<Routed<T>, ResponseEntity<?>> respondAsRead) {
    return whenAnswered(request, bound, readLater(view, bound, attempt).thenApply(respondAsRead));
  }

  /**
   * {@code attempt}'s answer once the records {@code bound} names are written and a replica here
   * has applied what it asks or the wait is over, with the position {@code bound} sent back merged
   * into it.
   */
  <T> CompletableFuture<Routed<T>> readLater(
      String view, ReadBound bound, Supplier<CompletableFuture<Routed<T>>> attempt) {
    return this.writtenFirst.read(view, bound, () -> read(bound, attempt));
  }

  private <T> CompletableFuture<Routed<T>> read(
      ReadBound bound, Supplier<CompletableFuture<Routed<T>>> attempt) {
    Function<Routed<T>, Routed<T>> merged = (routed) -> withSentPosition(routed, bound);
    CompletableFuture<Routed<T>> first = attempt.get();
    BoundWaits waiting = this.waits;
    if (waiting == null) {
      return first.thenApply(merged);
    }
    if (first.isDone()) {
      Routed<T> answered = Futures.now(first);
      if (!bound.isBound() || waiting.behind(answered, bound.maxWait()) == null) {
        return CompletableFuture.completedFuture(merged.apply(answered));
      }
    }
    CompletableFuture<Routed<T>> result = new CompletableFuture<>();
    waiting.await(first, bound.maxWait(), attempt, merged, result);
    return result;
  }

  /**
   * {@code response} when there, else {@code null} while waiting as long as {@code bound} lets it.
   */
  <R> @Nullable R whenAnswered(
      HttpServletRequest request, ReadBound bound, CompletableFuture<R> response) {
    if (response.isDone()) {
      return Futures.now(response);
    }
    // the model of a request that answers a ResponseEntity is never read: a new one stands for it
    DeferredResult<R> result =
        new DeferredResult<>(bound.maxWait().plus(this.routingTime).plus(ASYNC_MARGIN).toMillis());
    try {
      WebAsyncUtils.getAsyncManager(request)
          .startDeferredResultProcessing(result, new ModelAndViewContainer());
    } catch (Exception ex) {
      throw new IllegalStateException("The request could not wait asynchronously", ex);
    }
    // whichever comes first, the answer written straight to the response or the wait's timeout
    AtomicBoolean claim = new AtomicBoolean();
    result.onTimeout(() -> claim.set(true));
    response.whenComplete(
        (answered, failure) -> {
          if (failure != null) {
            result.setErrorResult(Futures.unwrapped(failure));
          } else if (!AsyncResponse.tryWrite(request, answered, claim)) {
            result.setResult(answered);
          }
        });
    return null;
  }

  /** {@code routed}, read here, with the position {@code bound} sent back merged into it. */
  static <T> Routed<T> withSentPosition(Routed<T> routed, ReadBound bound) {
    ViewPosition sent = bound.position();
    if (sent == null || sent.isEmpty() || !(routed instanceof Routed.Local<T> local)) {
      return routed;
    }
    ViewPosition read = local.position();
    if (read == null || !read.view().equals(sent.view())) {
      return routed;
    }
    return new Routed.Local<>(local.answer(), read.merge(sent));
  }

  /** How many lookups wait now for a replica to apply what they asked to see. */
  public int waiting() {
    BoundWaits waiting = this.waits;
    return (waiting != null) ? waiting.waiting() : 0;
  }
}
