package dev.matview.client;

import org.jspecify.annotations.Nullable;

/**
 * An RFC 9457 problem detail that a Matview server answered, with the members Matview adds.
 *
 * @param type the URI of the problem's type, such as {@code
 *     https://matview.dev/problems/view-unavailable}
 * @param title the type's short title
 * @param status the HTTP status
 * @param detail what went wrong for this request
 * @param view the view concerned
 * @param key the key concerned, as the server wrote it (JSON text unless it is a string)
 * @param partition the partition concerned
 * @param parameter the request parameter that was wrong
 * @param retryAfterSeconds how long to wait before asking again
 */
public record MatviewProblem(
    @Nullable String type,
    @Nullable String title,
    int status,
    @Nullable String detail,
    @Nullable String view,
    @Nullable String key,
    @Nullable Integer partition,
    @Nullable String parameter,
    @Nullable Long retryAfterSeconds) {

  /** What the type of each of Matview's problems starts with. */
  public static final String TYPE_BASE = "https://matview.dev/problems/";

  /** Whether the problem's type is Matview's {@code name}, such as {@code key-not-found}. */
  public boolean is(String name) {
    return (TYPE_BASE + name).equals(this.type);
  }
}
