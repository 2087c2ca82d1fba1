package dev.matview.query;

import dev.matview.position.ReadBound;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.WindowsAnswer;
import dev.matview.query.local.LocalRead;
import dev.matview.query.local.LocalReplicas;
import dev.matview.query.local.LocalStores;
import dev.matview.query.peer.Fallbacks;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.peer.PeerMarks;
import dev.matview.query.peer.PeerTarget;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.LookupGate;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.StaleReads;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Answers key and window lookups of views from any instance: parses the request and lets {@link
 * Fallbacks} choose the replica that answers, this instance's store or another instance's. Every
 * outcome but bad input comes back as a {@link Routed} value: found, absent, relayed or refused.
 */
public final class ViewQueryService {

  /** How long an instance that refused a connection or timed out is skipped, by default. */
  public static final Duration DEFAULT_DOWN_TIME = Duration.ofSeconds(2);

  private final ViewRegistry registry;

  private final LocalStores localStores;

  private final KeyParser keyParser;

  private final Fallbacks fallbacks;

  private final LookupTimer timer;

  private final ServedViews served;

  private final WindowLookups windowLookups;

  private final ObservedReads observed;

  /** A service with fallbacks of its own that reach other instances with {@code peers}. */
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
    this(
        registry,
        localStores,
        keyParser,
        clock,
        new Fallbacks(
            routing,
            localStores,
            peers,
            localInstance,
            localReplicas,
            staleReads,
            PeerMarks.lasting(DEFAULT_DOWN_TIME),
            new LookupGate()),
        metrics);
  }

  /** A service whose {@code fallbacks} choose the replica that answers each lookup. */
  public ViewQueryService(
      ViewRegistry registry,
      LocalStores localStores,
      KeyParser keyParser,
      Clock clock,
      Fallbacks fallbacks,
      LookupMetrics metrics) {
    this.registry = registry;
    this.localStores = localStores;
    this.keyParser = keyParser;
    this.fallbacks = fallbacks;
    this.timer = new LookupTimer(registry, metrics);
    this.served = new ServedViews(registry, fallbacks.gate());
    this.windowLookups = new WindowLookups(this.served, localStores, keyParser, clock, fallbacks);
    this.observed = new ObservedReads(registry);
  }

  /** How reads are observed under their callers' observations. */
  ObservedReads observed() {
    return this.observed;
  }

  /** The fallbacks that choose which replica answers a read. */
  Fallbacks fallbacks() {
    return this.fallbacks;
  }

  /** Every view, in declaration order. */
  public Collection<ResolvedView<?, ?, ?>> views() {
    return this.registry.all();
  }

  /** The Kafka Streams application id that names the views' topics. */
  public String applicationId() {
    return this.registry.applicationId();
  }

  /** The view named {@code name}; throws {@link ViewUnavailableException} while shutting down. */
  public ResolvedView<?, ?, ?> view(String name) {
    return this.served.view(name);
  }

  /** Refuses a bound whose records cannot be read before any key goes to another instance. */
  void requireReadable(ResolvedView<?, ?, ?> view, CallerContext caller) {
    this.localStores.positions().requireReadable(view, caller.bound());
  }

  /** Completes once the records {@code bound} names are known to be written, or fails at once. */
  public CompletableFuture<Void> written(String viewName, ReadBound bound) {
    if (bound.records().isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    return this.localStores.positions().written(view(viewName), bound);
  }

  /** The views lookups may ask for, checked by name and kind. */
  ServedViews served() {
    return this.served;
  }

  /** The current value of {@code rawKey} in a table view, a null value when it has none. */
  public CompletableFuture<Routed<KeyAnswer>> get(
      String viewName, String rawKey, CallerContext caller) {
    return this.timer.timed(
        viewName,
        () ->
            this.observed.lookup(
                viewName, "key", caller, (observed) -> getIn(viewName, rawKey, observed)));
  }

  private CompletableFuture<Routed<KeyAnswer>> getIn(
      String viewName, String rawKey, CallerContext caller) {
    if (this.fallbacks.gate().isClosed()) {
      return CompletableFuture.completedFuture(
          new Routed.Refused<>(this.fallbacks.gate().refusal(viewName, null)));
    }
    return getFrom(
        this.served.table(viewName, "key", "ask for a key's windows at .../keys/{key}/windows"),
        rawKey,
        caller);
  }

  private <K> CompletableFuture<Routed<KeyAnswer>> getFrom(
      ResolvedView<K, ?, ?> view, String rawKey, CallerContext caller) {
    return route(view, this.keyParser.key(view, rawKey), rawKey, caller);
  }

  /** The current value of {@code key}, written {@code rawKey}, untimed: one key of a batch. */
  <K> CompletableFuture<Routed<KeyAnswer>> route(
      ResolvedView<K, ?, ?> view, K key, String rawKey, CallerContext caller) {
    this.localStores.isolation().committed(view, caller.bound());
    LocalRead<KeyAnswer> read =
        (partition, replica, exact) ->
            new KeyAnswer(
                key, this.localStores.get(view, key, partition, exact, caller.bound()), replica);
    return this.fallbacks.route(view, key, caller, PeerTarget.ofKey(view.name(), rawKey), read);
  }

  /** The windows of {@code rawKey} whose start lies in [from, to], by default the retention. */
  public CompletableFuture<Routed<WindowsAnswer>> windows(
      String viewName,
      String rawKey,
      @Nullable Instant from,
      @Nullable Instant to,
      CallerContext caller) {
    return this.timer.timed(
        viewName,
        () ->
            this.observed.lookup(
                viewName,
                "windows",
                caller,
                (observed) -> this.windowLookups.windows(viewName, rawKey, from, to, observed)));
  }

  /** The lookups of one key's windows, alone or as one key of a batch. */
  WindowLookups windowLookups() {
    return this.windowLookups;
  }
}
