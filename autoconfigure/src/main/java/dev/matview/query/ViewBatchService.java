package dev.matview.query;

import dev.matview.peer.PeerPath;
import dev.matview.topology.ResolvedView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.state.HostInfo;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Looks up many keys of a table view at once: keys are grouped by the instance that owns them, each
 * remote owner gets one request, all in parallel, and the answers come back in the order asked.
 */
public final class ViewBatchService {

  private static final Log logger = LogFactory.getLog(ViewBatchService.class);

  private final ViewQueryService views;

  private final Routing routing;

  private final LocalStores localStores;

  private final PeerClient peers;

  private final ObjectMapper mapper;

  private final int maxBatchSize;

  /** A batch service that accepts at most {@code maxBatchSize} keys a request. */
  public ViewBatchService(
      ViewQueryService views,
      Routing routing,
      LocalStores localStores,
      PeerClient peers,
      ObjectMapper mapper,
      int maxBatchSize) {
    this.views = views;
    this.routing = routing;
    this.localStores = localStores;
    this.peers = peers;
    this.mapper = mapper;
    this.maxBatchSize = maxBatchSize;
  }

  /** The value of every key in {@code keys}, in the order asked. */
  public List<BatchItem> lookup(String viewName, List<JsonNode> keys, CallerContext caller) {
    ResolvedView<?, ?, ?> view = this.views.table(viewName, "view", "batch lookups serve tables");
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
    return lookupIn(view, keys, caller);
  }

  private <K> List<BatchItem> lookupIn(
      ResolvedView<K, ?, ?> view, List<JsonNode> rawKeys, CallerContext caller) {
    BatchItem[] answers = new BatchItem[rawKeys.size()];
    Map<HostInfo, OwnerKeys> remote = new LinkedHashMap<>();
    for (int index = 0; index < rawKeys.size(); index++) {
      K key = parseKey(view, rawKeys.get(index), index);
      PartitionOwner owner = this.routing.ownerOfKey(view, key);
      if (this.routing.isLocal(owner)) {
        Object value = this.localStores.get(view, key, owner.partition());
        answers[index] = new BatchItem(key, value != null, value);
      } else if (caller.forwarded()) {
        throw ViewUnavailableException.notOwner(view.name(), key, owner);
      } else {
        remote
            .computeIfAbsent(owner.host(), host -> new OwnerKeys(owner, new ArrayList<>()))
            .indexes()
            .add(index);
      }
    }
    List<OwnerKeys> groups = new ArrayList<>(remote.values());
    List<CompletableFuture<PeerResponse>> requests =
        groups.stream().map(group -> ask(view, group, rawKeys, caller)).toList();
    for (int i = 0; i < groups.size(); i++) {
      fill(view, groups.get(i), PeerClient.join(requests.get(i)), answers);
    }
    return Arrays.asList(answers);
  }

  private CompletableFuture<PeerResponse> ask(
      ResolvedView<?, ?, ?> view,
      OwnerKeys ownerKeys,
      List<JsonNode> rawKeys,
      CallerContext caller) {
    List<JsonNode> keys = ownerKeys.indexes().stream().map(rawKeys::get).toList();
    byte[] body = this.mapper.writeValueAsBytes(Map.of("keys", keys));
    String path = PeerPath.of(view.name(), "batch").toString();
    return this.peers.post(
        view.name(), ownerKeys.owner(), path, body, caller, this.peers.timeout());
  }

  private void fill(
      ResolvedView<?, ?, ?> view, OwnerKeys ownerKeys, PeerResponse response, BatchItem[] answers) {
    PartitionOwner owner = ownerKeys.owner();
    List<Integer> indexes = ownerKeys.indexes();
    if (!response.isSuccess()) {
      throw new PeerProblemException(response);
    }
    try {
      JsonNode items = this.mapper.readTree(response.body()).path("items");
      if (items.size() != indexes.size()) {
        throw new IllegalArgumentException(
            "asked for " + indexes.size() + " keys, got " + items.size());
      }
      for (int i = 0; i < indexes.size(); i++) {
        JsonNode item = items.get(i);
        boolean found = item.path("found").asBoolean();
        answers[indexes.get(i)] =
            new BatchItem(item.path("key"), found, found ? item.path("value") : null);
      }
    } catch (JacksonException | IllegalArgumentException ex) {
      logger.warn(
          "The instance "
              + owner.describe()
              + " sent a batch answer of view '"
              + view.name()
              + "' that cannot be read: "
              + ex.getMessage());
      throw new ViewUnavailableException(
          view.name(),
          null,
          owner.partition(),
          "Another instance sent a batch answer that cannot be read: " + ex.getMessage(),
          StreamsRouting.REBALANCE_RETRY);
    }
  }

  private <K> K parseKey(ResolvedView<K, ?, ?> view, JsonNode rawKey, int index) {
    Class<K> keyType = view.definition().keyType();
    if (rawKey == null || rawKey.isNull() || rawKey.isMissingNode()) {
      throw new InvalidQueryException(
          view.name(), "keys", "Key " + index + " of the batch is null");
    }
    try {
      if (keyType == String.class && !rawKey.isString()) {
        throw new IllegalArgumentException("expected a JSON string");
      }
      K key = this.mapper.treeToValue(rawKey, keyType);
      if (key == null) {
        throw new IllegalArgumentException("it reads as null");
      }
      return key;
    } catch (JacksonException | IllegalArgumentException ex) {
      throw new InvalidQueryException(
          view.name(),
          "keys",
          "Key "
              + index
              + " of the batch, "
              + rawKey
              + ", is not a "
              + keyType.getSimpleName()
              + ": "
              + (ex instanceof JacksonException jackson
                  ? jackson.getOriginalMessage()
                  : ex.getMessage()));
    }
  }

  /**
   * The keys of a batch that one remote instance owns.
   *
   * @param owner the instance, with the partition of the first of its keys
   * @param indexes where its keys stand in the batch
   */
  private record OwnerKeys(PartitionOwner owner, List<Integer> indexes) {}
}
