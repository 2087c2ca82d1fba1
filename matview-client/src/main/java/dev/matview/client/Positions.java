package dev.matview.client;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jspecify.annotations.Nullable;

/**
 * The position of the newest answer this client received from each view, which the view's next call
 * sends. A position only replaces the one its call was sent with: tokens are opaque and cannot be
 * compared here, and an answer bounded by the held position is at least as new as it, so the held
 * position never goes back. Of two calls sent at once with the same position, the first to answer
 * moves it on.
 */
final class Positions {

  private final ConcurrentMap<String, String> byView = new ConcurrentHashMap<>();

  /** The position to send with the next call of {@code view}, {@code null} before any. */
  @Nullable String get(String view) {
    return this.byView.get(view);
  }

  /**
   * Keeps {@code received}, the position of an answer of {@code view} to a call sent with {@code
   * sent}, unless another answer has moved the position on meanwhile.
   */
  void advance(String view, @Nullable String sent, @Nullable String received) {
    if (received == null || received.isBlank()) {
      return;
    }
    if (sent == null) {
      this.byView.putIfAbsent(view, received);
    } else {
      this.byView.replace(view, sent, received);
    }
  }
}
