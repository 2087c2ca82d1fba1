package dev.matview.query;

import dev.matview.peer.PeerPath;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import dev.matview.topology.ResolvedView;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What a batch of one kind of view reads: what an owner's batch request asks besides its keys, the
 * lookup of one key alone, and the item of the batch that each answer makes.
 *
 * @param <A> the answer of a lookup of one key alone
 * @param <I> an item of the batch
 */
interface BatchKind<A, I> {

  /** {@code path}, an owner's batch request, with the query parameters this kind adds. */
  PeerPath ownerQuery(PeerPath path);

  /** The lookup of {@code key}, written {@code rawKey}, alone, from the first replica that can. */
  <K> CompletableFuture<Routed<A>> alone(
      ResolvedView<K, ?, ?> view, K key, String rawKey, CallerContext caller);

  /** The item of {@code key} from its lookup alone, or the refusal that no replica could answer. */
  Routed<I> item(ResolvedView<?, ?, ?> view, Object key, Routed<A> answer);

  /** The item an owner answered in its batch answer, or {@code null} when it is not one. */
  @Nullable I owned(JsonNode item);
}
