package dev.matview.changes;

/** Where a change stream's events go: an SSE response, a relay's downstream. */
public interface ChangeSink {

  /**
   * Writes {@code event}: at once, or, for a sink that writes without blocking, once the client has
   * taken what was written before; throws {@link java.io.IOException} when the client went away.
   */
  void send(ChangeEvent event) throws java.io.IOException;

  /**
   * Writes {@code events} in order, at once where the sink can: one flush for all; throws {@link
   * java.io.IOException} when the client went away.
   */
  default void send(java.util.List<ChangeEvent> events) throws java.io.IOException {
    for (ChangeEvent event : events) {
      send(event);
    }
  }

  /**
   * Whether the client has taken what was written so far, so that writing more now does not pile
   * up; a sink that blocks its writer instead is always ready.
   */
  default boolean isReady() {
    return true;
  }

  /** Runs {@code ready} once the sink {@link #isReady() is ready}: at once when it is now. */
  default void whenReady(Runnable ready) {
    ready.run();
  }

  /**
   * Writes a comment that carries nothing, so that a client that went away is noticed; throws
   * {@link java.io.IOException} when the client went away.
   */
  void heartbeat() throws java.io.IOException;

  /** Ends the stream. */
  void close();

  /** Calls {@code onGone} once the client goes away or the stream ends for another reason. */
  void whenGone(Runnable onGone);
}
