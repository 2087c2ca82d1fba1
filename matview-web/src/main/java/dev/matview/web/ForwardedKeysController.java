package dev.matview.web;

import dev.matview.peer.ForwardedKeys;
import dev.matview.peer.PeerPath;
import dev.matview.position.Isolation;
import dev.matview.position.ReadBound;
import dev.matview.query.ViewQueryService;
import dev.matview.query.answer.Futures;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.routing.CallerContext;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Answers the key lookups another instance forwarded together ({@link ForwardedKeys}), each as its
 * lookup alone would have been answered; it serves only signed requests.
 */
@RestController
@RequestMapping("${matview.web.base-path:/views}")
public class ForwardedKeysController {

  private final KeyLookups keyLookups;

  private final Consistency consistency;

  private final BatchBodyReader bodies;

  private final Supplier<List<HttpMessageConverter<?>>> converters;

  private volatile @Nullable List<HttpMessageConverter<?>> resolvedConverters;

  /** A controller whose answers' bodies the first of {@code converters} that can writes. */
  public ForwardedKeysController(
      ViewQueryService queryService,
      ObjectMapper mapper,
      RequestLimits limits,
      Supplier<List<HttpMessageConverter<?>>> converters,
      Consistency consistency) {
    this.keyLookups = new KeyLookups(queryService, consistency);
    this.consistency = consistency;
    this.bodies = new BatchBodyReader(mapper, limits);
    this.converters = converters;
  }

  /**
   * Each key's answer, in order, under its bound in {@code "bounds"}; {@code null} while waiting.
   */
  @PostMapping(
      path = "/{view}/" + ForwardedKeys.SEGMENT,
      consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  public @Nullable ResponseEntity<List<ForwardedKeys.Answer>> lookups(
      @PathVariable String view, HttpServletRequest request) {
    CallerContext caller = peerCaller(view, request);
    JsonNode body = this.bodies.body(view, request);
    List<String> keys = rawKeys(view, this.bodies.keys(view, body));
    List<ForwardedKeys.Bound> bounds = ForwardedKeys.bounds(body, keys.size());
    if (bounds == null) {
      throw new InvalidQueryException(
          view, "bounds", "Forwarded keys that ask for positions carry one bound per key");
    }
    String viewPath = viewPath(request, ForwardedKeys.SEGMENT);
    Isolation isolation = RequestBounds.isolation(view, request);
    List<CompletableFuture<ResponseEntity<?>>> pending = new ArrayList<>(keys.size());
    ReadBound waitLimit = ReadBound.NONE;
    for (int i = 0; i < keys.size(); i++) {
      ReadBound bound =
          this.consistency.bounds().bound(view, bounds.get(i)).withIsolation(isolation);
      if (bound.isBound()) {
        waitLimit = bound; // every bound waits as long: matview.consistency.max-wait
      }
      pending.add(this.keyLookups.answerLater(view, keys.get(i), caller.withBound(bound)));
    }
    CompletableFuture<ResponseEntity<List<ForwardedKeys.Answer>>> all =
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
            .thenApply(
                (done) -> {
                  List<ForwardedKeys.Answer> answers = new ArrayList<>(keys.size());
                  for (int i = 0; i < keys.size(); i++) {
                    answers.add(
                        written(Futures.now(pending.get(i)), lookupPath(viewPath, keys.get(i))));
                  }
                  return ResponseEntity.ok(answers);
                });
    return this.consistency.whenAnswered(request, waitLimit, all);
  }

  /** The caller of a request that another instance signed; any other is refused. */
  private static CallerContext peerCaller(String view, HttpServletRequest request) {
    CallerContext caller = Callers.from(request, view);
    if (!caller.forwarded()) {
      throw new PeerOnlyException(
          view,
          "This endpoint answers only the lookups that other instances of this application"
              + " forward, signed; look a key of view '"
              + view
              + "' up at .../keys/{key} instead");
    }
    return caller;
  }

  private static List<String> rawKeys(String view, List<JsonNode> keys) {
    List<String> rawKeys = new ArrayList<>(keys.size());
    for (JsonNode key : keys) {
      if (!key.isString()) {
        throw new InvalidQueryException(
            view, "keys", "Forwarded keys are strings, as a path segment carries them");
      }
      rawKeys.add(key.asString());
    }
    return rawKeys;
  }

  /** The path of the view that {@code request}, which ends with {@code segment}, asked. */
  private static String viewPath(HttpServletRequest request, String segment) {
    String uri = request.getRequestURI();
    return uri.substring(0, uri.length() - segment.length());
  }

  private static String lookupPath(String viewPath, String key) {
    return viewPath + "keys/" + PeerPath.encode(key);
  }

  /** {@code answer} as its lookup alone, at {@code lookupPath}, would have been written. */
  private ForwardedKeys.Answer written(ResponseEntity<?> answer, String lookupPath) {
    Map<String, String> headers = new LinkedHashMap<>();
    answer.getHeaders().forEach((name, values) -> headers.put(name, String.join(", ", values)));
    Object body = answer.getBody();
    if (body instanceof ProblemDetail problem && problem.getInstance() == null) {
      problem.setInstance(URI.create(lookupPath));
    }
    String text =
        (body instanceof byte[] bytes)
            ? new String(bytes, StandardCharsets.UTF_8)
            : (body != null) ? write(body, answer.getHeaders()) : "";
    if (body != null && answer.getHeaders().getContentType() == null) {
      headers.put(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE);
    }
    return new ForwardedKeys.Answer(answer.getStatusCode().value(), headers, text);
  }

  @SuppressWarnings("unchecked")
  private String write(Object body, HttpHeaders answerHeaders) {
    MediaType type =
        (answerHeaders.getContentType() != null)
            ? answerHeaders.getContentType()
            : MediaType.APPLICATION_JSON;
    for (HttpMessageConverter<?> converter : converters()) {
      if (converter.canWrite(body.getClass(), type)) {
        Written written = new Written();
        try {
          ((HttpMessageConverter<Object>) converter).write(body, type, written);
        } catch (IOException ex) {
          throw new UncheckedIOException(ex);
        }
        return written.bytes.toString(StandardCharsets.UTF_8);
      }
    }
    throw new IllegalStateException(
        "No message converter writes " + body.getClass().getName() + " as " + type);
  }

  private List<HttpMessageConverter<?>> converters() {
    List<HttpMessageConverter<?>> resolved = this.resolvedConverters;
    if (resolved == null) {
      resolved = List.copyOf(this.converters.get());
      this.resolvedConverters = resolved;
    }
    return resolved;
  }

  /** An answer's body, written to memory. */
  private static final class Written implements HttpOutputMessage {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);

    private final HttpHeaders headers = new HttpHeaders();

    @Override
    public OutputStream getBody() {
      return this.bytes;
    }

    @Override
    public HttpHeaders getHeaders() {
      return this.headers;
    }
  }
}
