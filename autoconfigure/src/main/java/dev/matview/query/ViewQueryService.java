package dev.matview.query;

import dev.matview.peer.PeerPath;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.view.ViewWindow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Answers key and window lookups of views from any instance: from this instance's store when it
 * owns the key's partition, else by forwarding the request once to the owner.
 */
public final class ViewQueryService {

  private static final Log logger = LogFactory.getLog(ViewQueryService.class);

  private final ViewRegistry registry;

  private final Routing routing;

  private final LocalStores localStores;

  private final PeerClient peers;

  private final LocalInstance localInstance;

  private final KeyParser keyParser;

  private final Clock clock;

  private final StaleReads staleReads;

  private final LocalReplicas localReplicas;

  private final LookupMetrics metrics;

  /** A service without stale reads or metrics. */
  public ViewQueryService(
      ViewRegistry registry,
      Routing routing,
      LocalStores localStores,
      PeerClient peers,
      LocalInstance localInstance,
      KeyParser keyParser,
      Clock clock) {
    this(
        registry,
        routing,
        localStores,
        peers,
        localInstance,
        keyParser,
        clock,
        StaleReads.disabled(),
        LocalReplicas.NONE,
        LookupMetrics.NONE);
  }

  /**
   * A service that finds replicas through {@code routing}, reaches them with {@code peers}, lets
   * standbys answer as {@code staleReads} allows, judging local ones by {@code localReplicas}, and
   * times every lookup into {@code metrics}.
   */
  public ViewQueryService(
      ViewRegistry registry,
      Routing routing,
      LocalStores localStores,
      PeerClient peers,
      LocalInstance localInstance,
      KeyParser keyParser,
      Clock clock,
      StaleReads staleReads,
      LocalReplicas localReplicas,
      LookupMetrics metrics) {
    this.registry = registry;
    this.routing = routing;
    this.localStores = localStores;
    this.peers = peers;
    this.localInstance = localInstance;
    this.keyParser = keyParser;
    this.clock = clock;
    this.staleReads = staleReads;
    this.localReplicas = localReplicas;
    this.metrics = metrics;
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

  /**
   * The table view named {@code name}; a windowed or session view is refused as a bad {@code
   * parameter}, saying to {@code instead}.
   */
  ResolvedView<?, ?, ?> table(String name, String parameter, String instead) {
    ResolvedView<?, ?, ?> view = view(name);
    if (view.window() != null) {
      throw new InvalidQueryException(
          name, parameter, "View '" + name + "' is " + view.kind().label() + "; " + instead);
    }
    return view;
  }

  /** The window of {@code view}; a table is refused, saying to {@code instead}. */
  static ViewWindow windowOf(ResolvedView<?, ?, ?> view, String instead) {
    ViewWindow window = view.window();
    if (window == null) {
      throw new InvalidQueryException(
          view.name(), "view", "View '" + view.name() + "' is a table; " + instead);
    }
    return window;
  }

  /** The current value of {@code rawKey} in a table view; a null value when it has none. */
  public Routed<KeyAnswer> get(String viewName, String rawKey, CallerContext caller) {
    return timed(viewName, () -> getIn(viewName, rawKey, caller));
  }

  private Routed<KeyAnswer> getIn(String viewName, String rawKey, CallerContext caller) {
    ResolvedView<?, ?, ?> view =
        table(viewName, "key", "ask for a key's windows at .../keys/{key}/windows");
    return getFrom(view, rawKey, caller);
  }

  private <K> Routed<KeyAnswer> getFrom(
      ResolvedView<K, ?, ?> view, String rawKey, CallerContext caller) {
    K key = parseKey(view, rawKey);
    return route(
        view,
        key,
        caller,
        () -> PeerPath.of(view.name(), "keys", rawKey),
        (partition, replica) ->
            new KeyAnswer(
                key,
                this.localStores.get(
                    view,
                    key,
                    partition,
                    replica.role() == Replica.Role.ACTIVE && replica.offsetLag() == 0),
                replica));
  }

  /** The windows of {@code rawKey} whose start lies in [from, to], by default the retention. */
  public Routed<WindowsAnswer> windows(
      String viewName,
      String rawKey,
      @Nullable Instant from,
      @Nullable Instant to,
      CallerContext caller) {
    return timed(viewName, () -> windowsIn(viewName, rawKey, from, to, caller));
  }

  private Routed<WindowsAnswer> windowsIn(
      String viewName,
      String rawKey,
      @Nullable Instant from,
      @Nullable Instant to,
      CallerContext caller) {
    ResolvedView<?, ?, ?> view = view(viewName);
    ViewWindow window = windowOf(view, "ask for its key at .../keys/{key}");
    TimeRange range = TimeRange.of(viewName, window, from, to, this.clock);
    return windowsFrom(view, window, rawKey, range.from(), range.to(), caller);
  }

  private <K> Routed<WindowsAnswer> windowsFrom(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      String rawKey,
      Instant from,
      Instant to,
      CallerContext caller) {
    K key = parseKey(view, rawKey);
    return route(
        view,
        key,
        caller,
        () ->
            PeerPath.of(view.name(), "keys", rawKey, "windows").param("from", from).param("to", to),
        (partition, replica) ->
            new WindowsAnswer(
                key,
                this.localStores.windows(
                    view,
                    window,
                    key,
                    partition,
                    from,
                    to,
                    replica.role() == Replica.Role.ACTIVE && replica.offsetLag() == 0),
                replica));
  }

  /**
   * Answers from the key's active replica, here or on its owner; when that fails and stale reads
   * are allowed, from a standby within the lag bound, this instance's own first.
   */
  private <K, T> Routed<T> route(
      ResolvedView<K, ?, ?> view,
      K key,
      CallerContext caller,
      Supplier<PeerPath> pathInView,
      LocalRead<T> read) {
    StaleReads stale = this.staleReads.forCaller(caller);
    KeyReplicas replicas = this.routing.replicasOfKey(view, key);
    PartitionOwner active = replicas.active();
    RuntimeException activeFailure;
    if (this.routing.isLocal(active)) {
      Replica replica = localActive(view, active);
      try {
        if (!stale.enabled() || replica.offsetLag() > stale.maxLag()) {
          this.localStores.requireCaughtUp(view, key, active.partition());
        }
        return new Routed.Local<>(read.read(active.partition(), replica));
      } catch (ViewUnavailableException ex) {
        activeFailure = ex;
      }
    } else if (caller.forwarded()) {
      activeFailure = ViewUnavailableException.notOwner(view.name(), key, active);
    } else {
      try {
        PeerResponse response = forward(view, active, pathInView, caller, null);
        if (response.status() != 503 || !stale.enabled()) {
          return new Routed.Relayed<>(response);
        }
        activeFailure = new PeerProblemException(response);
      } catch (ViewUnavailableException | ViewTimeoutException ex) {
        activeFailure = ex;
      }
    }
    if (!stale.enabled()) {
      throw activeFailure;
    }
    return fromStandby(view, key, replicas, caller, stale, pathInView, read, activeFailure);
  }

  private <K, T> Routed<T> fromStandby(
      ResolvedView<K, ?, ?> view,
      K key,
      KeyReplicas replicas,
      CallerContext caller,
      StaleReads stale,
      Supplier<PeerPath> pathInView,
      LocalRead<T> read,
      RuntimeException activeFailure) {
    List<String> refusals = new ArrayList<>();
    for (PartitionOwner standby : localFirst(replicas.standbys())) {
      if (this.routing.isLocal(standby)) {
        LocalReplicas.State state = this.localReplicas.state(view.storeName(), standby.partition());
        if (state == null || state.lag() > stale.maxLag()) {
          refusals.add(
              "this instance's standby lags "
                  + (state != null ? state.lag() + " offsets" : "an unknown number of offsets"));
          continue;
        }
        try {
          Replica replica =
              new Replica(this.localInstance.describe(), Replica.Role.STANDBY, state.lag());
          return new Routed.Local<>(read.read(standby.partition(), replica));
        } catch (ViewUnavailableException ex) {
          refusals.add("this instance's standby: " + ex.getMessage());
        }
      } else if (!caller.forwarded()) {
        try {
          PeerResponse response = forward(view, standby, pathInView, caller, stale);
          if (response.isSuccess() || response.status() == 404) {
            return new Routed.Relayed<>(response);
          }
          refusals.add("a standby on another instance answered " + response.status());
          debug("The standby on " + standby.describe() + " answered " + response.status());
        } catch (ViewUnavailableException | ViewTimeoutException ex) {
          refusals.add("a standby on another instance: " + ex.getMessage());
        }
      }
    }
    throw new ViewUnavailableException(
        view.name(),
        key,
        replicas.partition(),
        "The active replica of partition "
            + replicas.partition()
            + " of view '"
            + view.name()
            + "' cannot answer ("
            + activeFailure.getMessage()
            + ") and no standby within "
            + stale.maxLag()
            + " offsets could"
            + (refusals.isEmpty() ? " (there is none)" : ": " + String.join("; ", refusals)),
        retryAfter(activeFailure));
  }

  private List<PartitionOwner> localFirst(List<PartitionOwner> standbys) {
    List<PartitionOwner> ordered = new ArrayList<>(standbys.size());
    standbys.stream().filter(this.routing::isLocal).forEach(ordered::add);
    standbys.stream().filter(standby -> !this.routing.isLocal(standby)).forEach(ordered::add);
    return ordered;
  }

  private PeerResponse forward(
      ResolvedView<?, ?, ?> view,
      PartitionOwner owner,
      Supplier<PeerPath> pathInView,
      CallerContext caller,
      @Nullable StaleReads stale) {
    PeerPath path = pathInView.get();
    if (stale != null) {
      path.param("allowStale", "true").param("maxLag", stale.maxLag());
    }
    return this.peers.get(view.name(), owner, path.toString(), caller, this.peers.timeout());
  }

  private Replica localActive(ResolvedView<?, ?, ?> view, PartitionOwner active) {
    LocalReplicas.State state = this.localReplicas.state(view.storeName(), active.partition());
    long lag = state != null && state.role() == Replica.Role.ACTIVE ? state.lag() : 0;
    return new Replica(this.localInstance.describe(), Replica.Role.ACTIVE, lag);
  }

  private static Duration retryAfter(RuntimeException failure) {
    return failure instanceof ViewUnavailableException unavailable
        ? unavailable.getRetryAfter()
        : StreamsRouting.REBALANCE_RETRY;
  }

  private <T> Routed<T> timed(String viewName, java.util.function.Supplier<Routed<T>> lookup) {
    long started = System.nanoTime();
    String route = "none";
    String outcome = "error";
    try {
      Routed<T> routed = lookup.get();
      route = routeOf(routed);
      outcome = outcomeOf(routed);
      return routed;
    } catch (InvalidQueryException | UnknownViewException ex) {
      outcome = "invalid";
      throw ex;
    } catch (ViewUnavailableException ex) {
      outcome = "unavailable";
      throw ex;
    } catch (ViewTimeoutException ex) {
      outcome = "timeout";
      throw ex;
    } finally {
      String view = this.registry.find(viewName).isPresent() ? viewName : "unknown";
      this.metrics.record(view, route, outcome, System.nanoTime() - started);
    }
  }

  private static String routeOf(Routed<?> routed) {
    if (routed instanceof Routed.Relayed<?> relayed) {
      return "standby".equals(relayed.response().header("Matview-Replica"))
          ? "standby"
          : "forwarded";
    }
    Object answer = ((Routed.Local<?>) routed).answer();
    Replica replica =
        answer instanceof KeyAnswer key ? key.replica() : ((WindowsAnswer) answer).replica();
    return replica.role() == Replica.Role.STANDBY ? "standby" : "local";
  }

  private static String outcomeOf(Routed<?> routed) {
    if (routed instanceof Routed.Relayed<?> relayed) {
      int status = relayed.response().status();
      return status == 200
          ? "found"
          : status == 404 ? "absent" : status == 503 ? "unavailable" : "error";
    }
    Object answer = ((Routed.Local<?>) routed).answer();
    return answer instanceof KeyAnswer key && key.value() == null ? "absent" : "found";
  }

  /**
   * Reads one partition of this instance's store.
   *
   * @param <T> the answer
   */
  @FunctionalInterface
  private interface LocalRead<T> {

    T read(int partition, Replica replica);
  }

  private <K> K parseKey(ResolvedView<K, ?, ?> view, String rawKey) {
    try {
      return this.keyParser.parse(view.definition().keyType(), rawKey);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(
          view.name(), "key", "Key " + ex.getMessage() + " as view '" + view.name() + "' needs");
    }
  }

  private static void debug(String message) {
    if (logger.isDebugEnabled()) {
      logger.debug(message);
    }
  }
}
