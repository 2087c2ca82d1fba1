package dev.matview.query;

import org.jspecify.annotations.Nullable;

/**
 * What a lookup request carries that matters for routing it.
 *
 * @param forwarded whether another instance forwarded the request, which may then only be answered
 *     locally
 * @param authorization the caller's {@code Authorization} header, passed on when forwarding
 */
public record CallerContext(boolean forwarded, @Nullable String authorization) {

  /** A request made directly by a client, without credentials. */
  public static CallerContext direct() {
    return new CallerContext(false, null);
  }
}
