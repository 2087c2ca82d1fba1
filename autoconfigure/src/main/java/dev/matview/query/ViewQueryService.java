package dev.matview.query;

import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.view.ViewWindow;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Answers key and window lookups of views from any instance: from this instance's store when it
 * owns the key's partition, else by forwarding the request once to the owner.
 */
public final class ViewQueryService {

  private final ViewRegistry registry;

  private final Routing routing;

  private final LocalStores localStores;

  private final PeerClient peers;

  private final LocalInstance localInstance;

  private final KeyParser keyParser;

  private final Clock clock;

  /** A service that finds owners through {@code routing} and reaches them with {@code peers}. */
  public ViewQueryService(
      ViewRegistry registry,
      Routing routing,
      LocalStores localStores,
      PeerClient peers,
      LocalInstance localInstance,
      KeyParser keyParser,
      Clock clock) {
    this.registry = registry;
    this.routing = routing;
    this.localStores = localStores;
    this.peers = peers;
    this.localInstance = localInstance;
    this.keyParser = keyParser;
    this.clock = clock;
  }

  /** Every view, in declaration order. */
  public Collection<ResolvedView<?, ?, ?>> views() {
    return this.registry.all();
  }

  /** The Kafka Streams application id that names the views' topics. */
  public String applicationId() {
    return this.registry.applicationId();
  }

  /** The view named {@code name}. */
  public ResolvedView<?, ?, ?> view(String name) {
    return this.registry.find(name).orElseThrow(() -> new UnknownViewException(name));
  }

  /** The current value of {@code rawKey} in a table view; a null value when it has none. */
  public Routed<KeyAnswer> get(String viewName, String rawKey, CallerContext caller) {
    ResolvedView<?, ?, ?> view = view(viewName);
    if (view.window() != null) {
      throw new InvalidQueryException(
          viewName,
          "key",
          "View '"
              + viewName
              + "' is "
              + view.kind().label()
              + "; ask for a key's windows at .../keys/{key}/windows");
    }
    return getFrom(view, rawKey, caller);
  }

  private <K> Routed<KeyAnswer> getFrom(
      ResolvedView<K, ?, ?> view, String rawKey, CallerContext caller) {
    K key = parseKey(view, rawKey);
    PartitionOwner owner = this.routing.ownerOfKey(view, key);
    if (this.routing.isLocal(owner)) {
      Object value = this.localStores.get(view, key, owner.partition());
      return new Routed.Local<>(new KeyAnswer(key, value, activeReplica()));
    }
    return forward(view, key, owner, "/keys/" + encode(rawKey), caller);
  }

  /** The windows of {@code rawKey} whose start lies in [from, to], by default the retention. */
  public Routed<WindowsAnswer> windows(
      String viewName,
      String rawKey,
      @Nullable Instant from,
      @Nullable Instant to,
      CallerContext caller) {
    ResolvedView<?, ?, ?> view = view(viewName);
    ViewWindow window = view.window();
    if (window == null) {
      throw new InvalidQueryException(
          viewName,
          "view",
          "View '" + viewName + "' is a table without windows; ask for its key at .../keys/{key}");
    }
    Instant end = to != null ? to : this.clock.instant();
    Instant start = from != null ? from : end.minus(window.effectiveRetention());
    if (start.isAfter(end)) {
      throw new InvalidQueryException(
          viewName, "from", "'from' (" + start + ") must not be after 'to' (" + end + ")");
    }
    return windowsFrom(view, window, rawKey, start, end, caller);
  }

  private <K> Routed<WindowsAnswer> windowsFrom(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      String rawKey,
      Instant from,
      Instant to,
      CallerContext caller) {
    K key = parseKey(view, rawKey);
    PartitionOwner owner = this.routing.ownerOfKey(view, key);
    if (this.routing.isLocal(owner)) {
      List<WindowValue> windows =
          this.localStores.windows(view, window, key, owner.partition(), from, to);
      return new Routed.Local<>(new WindowsAnswer(key, windows, activeReplica()));
    }
    String path = "/keys/" + encode(rawKey) + "/windows?from=" + from + "&to=" + to;
    return forward(view, key, owner, path, caller);
  }

  private <T> Routed<T> forward(
      ResolvedView<?, ?, ?> view,
      Object key,
      PartitionOwner owner,
      String pathInView,
      CallerContext caller) {
    if (caller.forwarded()) {
      throw ViewUnavailableException.notOwner(view.name(), key, owner);
    }
    PeerResponse response =
        PeerClient.join(
            this.peers.get(
                view.name(),
                owner,
                "/" + encode(view.name()) + pathInView,
                caller,
                this.peers.timeout()));
    return new Routed.Relayed<>(response);
  }

  private <K> K parseKey(ResolvedView<K, ?, ?> view, String rawKey) {
    try {
      return this.keyParser.parse(view.definition().keyType(), rawKey);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(
          view.name(), "key", "Key " + ex.getMessage() + " as view '" + view.name() + "' needs");
    }
  }

  private Replica activeReplica() {
    return new Replica(this.localInstance.describe(), Replica.Role.ACTIVE, 0);
  }

  static String encode(String pathSegment) {
    return URLEncoder.encode(pathSegment, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
