package dev.matview.query;

import dev.matview.peer.PeerPath;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.WindowsAnswer;
import dev.matview.query.answer.WindowsItem;
import dev.matview.query.routing.CallerContext;
import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A batch of a windowed or session view: each key's windows whose start lies in one range, the same
 * for every key and every owner asked.
 */
final class WindowItems implements BatchKind<WindowsAnswer, WindowsItem> {

  private final WindowLookups lookups;

  private final BatchAnswers answers;

  private final ViewWindow window;

  private final TimeRange range;

  WindowItems(WindowLookups lookups, BatchAnswers answers, ViewWindow window, TimeRange range) {
    this.lookups = lookups;
    this.answers = answers;
    this.window = window;
    this.range = range;
  }

  @Override
  public PeerPath ownerQuery(PeerPath path) {
    return path.param("from", this.range.from()).param("to", this.range.to());
  }

  @Override
  public <K> CompletableFuture<Routed<WindowsAnswer>> alone(
      ResolvedView<K, ?, ?> view, K key, String rawKey, CallerContext caller) {
    return this.lookups.route(view, this.window, key, rawKey, this.range, caller);
  }

  @Override
  public Routed<WindowsItem> item(
      ResolvedView<?, ?, ?> view, Object key, Routed<WindowsAnswer> answer) {
    return this.answers.windowsItem(view, key, answer);
  }

  @Override
  public @Nullable WindowsItem owned(JsonNode item) {
    return BatchAnswers.ownedWindows(item);
  }
}
