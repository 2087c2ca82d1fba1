package dev.matview.test;

import dev.matview.web.ViewController;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

/**
 * What the application answered a request of a {@link MatviewTestClient}: the status, the body read
 * as the view's types, and the response headers, among them those that say which replica answered
 * and how new the answer is.
 *
 * @param status the HTTP status, 200, or 404 for a key without a value
 * @param body the answer's body, typed
 * @param headers the response headers, read-only
 * @param <T> the body's type
 */
public record ViewAnswer<T>(int status, T body, HttpHeaders headers) {

  /** The header of the input position an answer reflects, and of the least position asked for. */
  public static final String POSITION_HEADER = "Matview-Position";

  /** An answer; the headers are copied read-only. */
  public ViewAnswer {
    headers = HttpHeaders.readOnlyHttpHeaders(headers);
  }

  /** The first value of the response header {@code name}, or {@code null} when there is none. */
  public @Nullable String header(String name) {
    return this.headers.getFirst(name);
  }

  /**
   * The {@code Matview-Position} token: the input offsets the answering replica had applied, to
   * pass on with {@link HttpView#position(String)}; {@code null} when the answer carries none.
   */
  public @Nullable String position() {
    return header(POSITION_HEADER);
  }

  /**
   * The {@code Matview-Served-By} header: {@code host:port} of the instance whose store answered.
   */
  public @Nullable String servedBy() {
    return header(ViewController.SERVED_BY_HEADER);
  }

  /** The {@code Matview-Replica} header: {@code active} or {@code standby}. */
  public @Nullable String replica() {
    return header(ViewController.REPLICA_HEADER);
  }

  /** This answer with {@code body} instead of its own. */
  <U> ViewAnswer<U> withBody(U body) {
    return new ViewAnswer<>(this.status, body, this.headers);
  }
}
