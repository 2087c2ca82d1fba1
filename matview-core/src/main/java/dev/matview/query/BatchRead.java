package dev.matview.query;

import dev.matview.query.ViewBatchService.OwnerKeys;
import dev.matview.query.answer.BatchItem;
import dev.matview.query.answer.Futures;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import dev.matview.topology.ResolvedView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One batch's answers, gathered from the owners asked and then key by key, in the order asked.
 *
 * @param <K> the view's key type
 */
final class BatchRead<K> {

  private final ViewQueryService views;

  private final BatchAnswers answers;

  private final ResolvedView<K, ?, ?> view;

  private final List<K> keys;

  private final List<JsonNode> rawKeys;

  private final CallerContext caller;

  private final List<Integer> alone;

  private final @Nullable BatchItem[] items;

  private final MergedPosition position;

  /**
   * The answers of {@code keys}, as {@code rawKeys} asked them, those at {@code alone} looked up
   * one by one with {@code views}, read from other instances' answers with {@code answers}, the
   * positions of all of them merged into {@code position}.
   */
  BatchRead(
      ViewQueryService views,
      BatchAnswers answers,
      ResolvedView<K, ?, ?> view,
      List<K> keys,
      List<JsonNode> rawKeys,
      CallerContext caller,
      List<Integer> alone,
      MergedPosition position) {
    this.views = views;
    this.answers = answers;
    this.view = view;
    this.keys = keys;
    this.rawKeys = rawKeys;
    this.caller = caller;
    this.alone = alone;
    this.items = new BatchItem[keys.size()];
    this.position = position;
  }

  /** Fills the items of {@code group} from its owner's {@code answer}, or looks them up alone. */
  void fill(OwnerKeys group, Routed<Void> answer) {
    if (!(answer instanceof Routed.Relayed<Void> relayed)
        || !this.answers.fill(this.view, group, relayed.response(), this.items)) {
      this.alone.addAll(group.indexes());
    } else {
      this.position.add(relayed.response());
    }
  }

  /**
   * The batch, once every key looked up alone from the {@code first}th on has an answer, or the
   * first refusal among them: in this thread while they are answered at once, then on from where an
   * answer that waits for another instance completes.
   */
  CompletableFuture<Routed<List<BatchItem>>> aloneFrom(int first) {
    for (int next = first; next < this.alone.size(); next++) {
      int index = this.alone.get(next);
      K key = this.keys.get(index);
      String rawKey = rawKey(this.rawKeys.get(index));
      CompletableFuture<Routed<KeyAnswer>> answer =
          this.views.route(this.view, key, rawKey, this.caller);
      if (!answer.isDone()) {
        int waited = next;
        return answer.thenCompose(
            (routed) -> {
              Routed.@Nullable Refused<List<BatchItem>> refused = add(index, routed);
              return (refused != null)
                  ? CompletableFuture.completedFuture(refused)
                  : aloneFrom(waited + 1);
            });
      }
      Routed.@Nullable Refused<List<BatchItem>> refused = add(index, Futures.now(answer));
      if (refused != null) {
        return CompletableFuture.completedFuture(refused);
      }
    }
    List<BatchItem> ordered = new ArrayList<>(this.items.length);
    Arrays.stream(this.items).forEach(item -> ordered.add(Objects.requireNonNull(item)));
    return CompletableFuture.completedFuture(new Routed.Local<>(ordered, this.position.merged()));
  }

  /** Adds the answer of the key at {@code index}; its refusal when no replica could answer. */
  private Routed.@Nullable Refused<List<BatchItem>> add(int index, Routed<KeyAnswer> answer) {
    Routed<BatchItem> item = this.answers.item(this.view, this.keys.get(index), answer);
    if (item instanceof Routed.Refused<BatchItem> refused) {
      return new Routed.Refused<>(refused.refusal());
    }
    this.position.add(answer);
    this.items[index] = ((Routed.Local<BatchItem>) item).answer();
    return null;
  }

  /** The key as a path segment would carry it: a JSON string's text, any other JSON as written. */
  private static String rawKey(JsonNode key) {
    return key.isString() ? key.asString() : key.toString();
  }
}
