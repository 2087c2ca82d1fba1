package dev.matview.query;

import dev.matview.peer.PeerPath;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.WindowsAnswer;
import dev.matview.query.local.LocalRead;
import dev.matview.query.local.LocalStores;
import dev.matview.query.peer.Fallbacks;
import dev.matview.query.peer.PeerTarget;
import dev.matview.query.routing.CallerContext;
import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Reads the windows of one key of a windowed or session view from the first replica that can
 * answer, this instance's store or another instance's, alone or as one key of a batch.
 */
final class WindowLookups {

  private final ServedViews served;

  private final LocalStores localStores;

  private final KeyParser keyParser;

  private final Clock clock;

  private final Fallbacks fallbacks;

  WindowLookups(
      ServedViews served,
      LocalStores localStores,
      KeyParser keyParser,
      Clock clock,
      Fallbacks fallbacks) {
    this.served = served;
    this.localStores = localStores;
    this.keyParser = keyParser;
    this.clock = clock;
    this.fallbacks = fallbacks;
  }

  /** The windows of {@code rawKey} in view {@code viewName} whose start lies in [from, to]. */
  CompletableFuture<Routed<WindowsAnswer>> windows(
      String viewName,
      String rawKey,
      @Nullable Instant from,
      @Nullable Instant to,
      CallerContext caller) {
    if (this.fallbacks.gate().isClosed()) {
      return CompletableFuture.completedFuture(
          new Routed.Refused<>(this.fallbacks.gate().refusal(viewName, null)));
    }
    ResolvedView<?, ?, ?> view = this.served.view(viewName);
    ViewWindow window = windowOf(view);
    return parsed(view, window, rawKey, range(view, window, from, to), caller);
  }

  /** The window of {@code view}; a table is refused as a bad request. */
  static ViewWindow windowOf(ResolvedView<?, ?, ?> view) {
    return ServedViews.windowOf(view, "ask for its key at .../keys/{key} or .../key?key=");
  }

  /** The window starts asked of {@code view}, by default its retention back from now, and now. */
  TimeRange range(
      ResolvedView<?, ?, ?> view, ViewWindow window, @Nullable Instant from, @Nullable Instant to) {
    return TimeRange.of(view.name(), window, from, to, this.clock);
  }

  private <K> CompletableFuture<Routed<WindowsAnswer>> parsed(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      String rawKey,
      TimeRange range,
      CallerContext caller) {
    return route(view, window, this.keyParser.key(view, rawKey), rawKey, range, caller);
  }

  /** The windows of {@code key} starting in {@code range}, untimed: alone or one key of a batch. */
  <K> CompletableFuture<Routed<WindowsAnswer>> route(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      K key,
      String rawKey,
      TimeRange range,
      CallerContext caller) {
    this.localStores.isolation().committed(view, caller.bound());
    PeerTarget path =
        () ->
            PeerPath.ofKey(view.name(), rawKey, "windows")
                .param("from", range.from())
                .param("to", range.to());
    LocalRead<WindowsAnswer> read =
        (partition, replica, exact) ->
            new WindowsAnswer(
                key,
                this.localStores.windows(
                    view, window, key, partition, range.from(), range.to(), exact),
                replica);
    return this.fallbacks.route(view, key, caller, path, read);
  }
}
