package dev.matview.query;

import dev.matview.peer.PeerPath;
import dev.matview.query.answer.BatchItem;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import dev.matview.topology.ResolvedView;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;

/** A batch of a table view: each key's value, or that it has none. */
final class TableItems implements BatchKind<KeyAnswer, BatchItem> {

  private final ViewQueryService views;

  private final BatchAnswers answers;

  TableItems(ViewQueryService views, BatchAnswers answers) {
    this.views = views;
    this.answers = answers;
  }

  @Override
  public PeerPath ownerQuery(PeerPath path) {
    return path;
  }

  @Override
  public <K> CompletableFuture<Routed<KeyAnswer>> alone(
      ResolvedView<K, ?, ?> view, K key, String rawKey, CallerContext caller) {
    return this.views.route(view, key, rawKey, caller);
  }

  @Override
  public Routed<BatchItem> item(ResolvedView<?, ?, ?> view, Object key, Routed<KeyAnswer> answer) {
    return this.answers.item(view, key, answer);
  }

  @Override
  public BatchItem owned(JsonNode item) {
    return BatchAnswers.ownedValue(item);
  }
}
