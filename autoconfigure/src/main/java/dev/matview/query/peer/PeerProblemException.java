package dev.matview.query.peer;

import dev.matview.peer.PeerResponse;
import org.jspecify.annotations.Nullable;

/** The owner of a partition answered a forwarded request with an error, which is passed on. */
public class PeerProblemException extends RuntimeException {

  private final PeerResponse response;

  /** An exception carrying the owner's error {@code response}. */
  public PeerProblemException(PeerResponse response) {
    super("The owning instance answered " + response.status());
    this.response = response;
  }

  /** The owner's answer. */
  public PeerResponse getResponse() {
    return this.response;
  }

  /** The owner's {@code Retry-After} header, if any. */
  public @Nullable String getRetryAfter() {
    return this.response.header("Retry-After");
  }
}
