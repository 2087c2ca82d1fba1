package dev.matview.query;

import dev.matview.peer.PeerPath;
import dev.matview.position.PositionTokens;
import dev.matview.query.answer.BatchItem;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.WindowsItem;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.peer.PeerMarks;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.Routing;
import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Looks up many keys of a view at once: their values in a table, their windows in a windowed or
 * session view. Keys whose active replica runs on another instance that is not marked down go to it
 * in one request per instance, all in parallel; every other key, and every key of an instance that
 * does not answer the batch, is looked up alone, with the same fallbacks to standbys as a lookup of
 * one key. The answers come back in the order asked, or the first refusal of a key that no replica
 * could answer.
 */
public final class ViewBatchService {

  private final ViewQueryService views;

  private final Routing routing;

  private final PeerClient peers;

  private final PeerMarks marks;

  private final BatchAnswers answers;

  private final int maxBatchSize;

  private final @Nullable PositionTokens tokens;

  /**
   * A batch service of at most {@code maxBatchSize} keys, reading positions with {@code tokens}.
   */
  public ViewBatchService(
      ViewQueryService views,
      Routing routing,
      PeerClient peers,
      PeerMarks marks,
      ObjectMapper mapper,
      int maxBatchSize,
      @Nullable PositionTokens tokens) {
    this.tokens = tokens;
    this.views = views;
    this.routing = routing;
    this.peers = peers;
    this.marks = marks;
    this.answers = new BatchAnswers(mapper);
    this.maxBatchSize = maxBatchSize;
  }

  /** The value of every key in {@code keys}, in the order asked, or why one could not be. */
  public CompletableFuture<Routed<List<BatchItem>>> lookup(
      String viewName, List<JsonNode> keys, CallerContext caller) {
    return this.views
        .observed()
        .lookup(viewName, "batch", caller, (observed) -> lookupObserved(viewName, keys, observed));
  }

  private CompletableFuture<Routed<List<BatchItem>>> lookupObserved(
      String viewName, List<JsonNode> keys, CallerContext caller) {
    ResolvedView<?, ?, ?> view =
        this.views
            .served()
            .table(
                viewName,
                "view",
                "its batch answers each key's windows: post the keys to .../batch?from=&to=");
    requireWithinSize(viewName, keys);
    this.views.requireReadable(view, caller);
    return read(view, keys, caller, new TableItems(this.views, this.answers));
  }

  /** The windows of every key in {@code keys} starting in [from, to], in order, or a refusal. */
  public CompletableFuture<Routed<List<WindowsItem>>> windows(
      String viewName,
      List<JsonNode> keys,
      @Nullable Instant from,
      @Nullable Instant to,
      CallerContext caller) {
    return this.views
        .observed()
        .lookup(
            viewName,
            "batch",
            caller,
            (observed) -> windowsObserved(viewName, keys, from, to, observed));
  }

  private CompletableFuture<Routed<List<WindowsItem>>> windowsObserved(
      String viewName,
      List<JsonNode> keys,
      @Nullable Instant from,
      @Nullable Instant to,
      CallerContext caller) {
    ResolvedView<?, ?, ?> view = this.views.view(viewName);
    ViewWindow window = WindowLookups.windowOf(view);
    WindowLookups lookups = this.views.windowLookups();
    TimeRange range = lookups.range(view, window, from, to);
    requireWithinSize(viewName, keys);
    this.views.requireReadable(view, caller);
    return read(view, keys, caller, new WindowItems(lookups, this.answers, window, range));
  }

  private void requireWithinSize(String viewName, List<JsonNode> keys) {
    if (keys.size() > this.maxBatchSize) {
      throw new InvalidQueryException(
          viewName,
          "keys",
          "A batch may hold at most "
              + this.maxBatchSize
              + " keys, this one holds "
              + keys.size()
              + "; split it");
    }
  }

  private <K, A, I> CompletableFuture<Routed<List<I>>> read(
      ResolvedView<K, ?, ?> view,
      List<JsonNode> rawKeys,
      CallerContext caller,
      BatchKind<A, I> kind) {
    List<K> keys = new ArrayList<>(rawKeys.size());
    for (int index = 0; index < rawKeys.size(); index++) {
      keys.add(this.answers.key(view, rawKeys.get(index), index));
    }
    Map<HostInfo, OwnerKeys> remote = new LinkedHashMap<>();
    List<Integer> alone = new ArrayList<>();
    for (int index = 0; index < keys.size(); index++) {
      PartitionOwner owner = remoteOwner(view, keys.get(index), caller);
      if (owner == null) {
        alone.add(index);
      } else {
        remote
            .computeIfAbsent(owner.host(), host -> new OwnerKeys(owner, new ArrayList<>()))
            .indexes()
            .add(index);
      }
    }
    List<OwnerKeys> groups = new ArrayList<>(remote.values());
    List<CompletableFuture<Routed<Void>>> requests =
        groups.stream().map(group -> ask(view, group, rawKeys, caller, kind)).toList();
    BatchRead<K, A, I> batch =
        new BatchRead<>(
            kind,
            this.answers,
            view,
            keys,
            rawKeys,
            caller,
            alone,
            new MergedPosition(view.name(), this.tokens));
    CompletableFuture<Void> owners =
        CompletableFuture.allOf(requests.toArray(CompletableFuture<?>[]::new));
    return owners.thenCompose(
        (answered) -> {
          for (int i = 0; i < groups.size(); i++) {
            Routed<Void> answer = requests.get(i).join();
            this.marks.observed(groups.get(i).owner().host(), answer);
            batch.fill(groups.get(i), answer);
          }
          return batch.aloneFrom(0);
        });
  }

  /** The active replica of {@code key} when a batch may ask its instance, else {@code null}. */
  private <K> @Nullable PartitionOwner remoteOwner(
      ResolvedView<K, ?, ?> view, K key, CallerContext caller) {
    if (caller.forwarded()
        || !(this.routing.placeKey(view, key) instanceof KeyReplicas replicas)
        || this.routing.isLocal(replicas.active())
        || this.marks.isDown(replicas.active().host())) {
      return null;
    }
    return replicas.active();
  }

  private CompletableFuture<Routed<Void>> ask(
      ResolvedView<?, ?, ?> view,
      OwnerKeys ownerKeys,
      List<JsonNode> rawKeys,
      CallerContext caller,
      BatchKind<?, ?> kind) {
    List<JsonNode> keys = ownerKeys.indexes().stream().map(rawKeys::get).toList();
    PeerPath path =
        caller
            .bound()
            .addTo(
                kind.ownerQuery(PeerPath.of(view.name(), "batch"))
                    .param("allowStale", caller.allowStale())
                    .param("maxLag", caller.maxLag()));
    Duration waited = caller.bound().waited(this.peers.timeout());
    byte[] body = this.answers.body(keys);
    return this.peers.post(view.name(), ownerKeys.owner(), path.toString(), body, caller, waited);
  }

  /** The keys of a batch, by where they stand in it, that one remote {@code owner} owns. */
  record OwnerKeys(PartitionOwner owner, List<Integer> indexes) {}
}
