package dev.matview.query;

import dev.matview.query.ViewBatchService.OwnerKeys;
import dev.matview.query.answer.Futures;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import dev.matview.topology.ResolvedView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/** One batch's answers, gathered from the owners asked and then key by key, in the order asked. */
final class BatchRead<K, A, I> {

  private final BatchKind<A, I> kind;

  private final BatchAnswers answers;

  private final ResolvedView<K, ?, ?> view;

  private final List<K> keys;

  private final List<JsonNode> rawKeys;

  private final CallerContext caller;

  private final List<Integer> alone;

  private final List<@Nullable I> items;

  private final MergedPosition position;

  /** The answers of {@code keys}, those at {@code alone} looked up one by one. */
  BatchRead(
      BatchKind<A, I> kind,
      BatchAnswers answers,
      ResolvedView<K, ?, ?> view,
      List<K> keys,
      List<JsonNode> rawKeys,
      CallerContext caller,
      List<Integer> alone,
      MergedPosition position) {
    this.kind = kind;
    this.answers = answers;
    this.view = view;
    this.keys = keys;
    this.rawKeys = rawKeys;
    this.caller = caller;
    this.alone = alone;
    this.items = new ArrayList<>(Collections.nCopies(keys.size(), null));
    this.position = position;
  }

  /** Fills the items of {@code group} from its owner's {@code answer}, or looks them up alone. */
  void fill(OwnerKeys group, Routed<Void> answer) {
    if (!(answer instanceof Routed.Relayed<Void> relayed)
        || !this.answers.fill(this.view, group, relayed.response(), this.items, this.kind::owned)) {
      this.alone.addAll(group.indexes());
    } else {
      this.position.add(relayed.response());
    }
  }

  /** The batch once every key alone from the {@code first}th on has an answer, or a refusal. */
  CompletableFuture<Routed<List<I>>> aloneFrom(int first) {
    for (int next = first; next < this.alone.size(); next++) {
      int index = this.alone.get(next);
      K key = this.keys.get(index);
      String rawKey = rawKey(this.rawKeys.get(index));
      CompletableFuture<Routed<A>> answer = this.kind.alone(this.view, key, rawKey, this.caller);
      if (!answer.isDone()) {
        int waited = next;
        return answer.thenCompose(
            (routed) -> {
              Routed.@Nullable Refused<List<I>> refused = add(index, routed);
              return (refused != null)
                  ? CompletableFuture.completedFuture(refused)
                  : aloneFrom(waited + 1);
            });
      }
      Routed.@Nullable Refused<List<I>> refused = add(index, Futures.now(answer));
      if (refused != null) {
        return CompletableFuture.completedFuture(refused);
      }
    }
    List<I> ordered = new ArrayList<>(this.items.size());
    this.items.forEach(item -> ordered.add(Objects.requireNonNull(item)));
    return CompletableFuture.completedFuture(new Routed.Local<>(ordered, this.position.merged()));
  }

  /** Adds the answer of the key at {@code index}; its refusal when no replica could answer. */
  private Routed.@Nullable Refused<List<I>> add(int index, Routed<A> answer) {
    Routed<I> item = this.kind.item(this.view, this.keys.get(index), answer);
    if (item instanceof Routed.Refused<I> refused) {
      return new Routed.Refused<>(refused.refusal());
    }
    this.position.add(answer);
    this.items.set(index, ((Routed.Local<I>) item).answer());
    return null;
  }

  /** The key as a request carries it: a JSON string's text, any other JSON as written. */
  private static String rawKey(JsonNode key) {
    return key.isString() ? key.asString() : key.toString();
  }
}
