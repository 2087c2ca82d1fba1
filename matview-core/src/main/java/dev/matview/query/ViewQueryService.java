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

  /**
   * A service that reads this instance's stores with {@code localStores} and chooses the replica
   * that answers each key lookup with {@code fallbacks}, timing every lookup into {@code metrics}.
   */
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

  /**
   * The view named {@code name}.
   *
   * @throws ViewUnavailableException while this instance shuts down
   */
  public ResolvedView<?, ?, ?> view(String name) {
    return this.served.view(name);
  }

  /**
   * Refuses the records {@code caller}'s bound names when they cannot be read, before any of a
   * request's keys goes to another instance, whose refusal would otherwise come back per key.
   */
  void requireReadable(ResolvedView<?, ?, ?> view, CallerContext caller) {
    this.localStores.positions().requireReadable(view, caller.bound());
  }

  /**
   * Completes once the records {@code bound} names are known to be written to view {@code
   * viewName}'s source topic, or the broker did not tell in time: at once when no record is named
   * or ends seen before tell. Callers ask it before a bound read, so that a record no replica will
   * ever apply is refused at once instead of waited for.
   *
   * @return a future failed with {@link dev.matview.query.answer.InvalidQueryException} naming the
   *     record and why
   */
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

  /**
   * The current value of {@code rawKey} in a table view, a null value when it has none; a lookup
   * that goes to another instance waits for the answer without a thread.
   */
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
    return this.fallbacks.gate().isClosed()
        ? gateClosed(viewName)
        : getFrom(tableOf(viewName), rawKey, caller);
  }

  private <K> CompletableFuture<Routed<KeyAnswer>> getFrom(
      ResolvedView<K, ?, ?> view, String rawKey, CallerContext caller) {
    return route(view, this.keyParser.key(view, rawKey), rawKey, caller);
  }

  /** The refusal of a lookup while this instance serves none, as it starts or stops. */
  private <T> CompletableFuture<Routed<T>> gateClosed(String viewName) {
    return CompletableFuture.completedFuture(
        new Routed.Refused<>(this.fallbacks.gate().refusal(viewName, null)));
  }

  private ResolvedView<?, ?, ?> tableOf(String viewName) {
    return this.served.table(viewName, "key", "ask for a key's windows at .../keys/{key}/windows");
  }

  /**
   * The current value of {@code key}, written {@code rawKey} in a path, from the first replica that
   * can answer, untimed: one key of a batch.
   */
  <K> CompletableFuture<Routed<KeyAnswer>> route(
      ResolvedView<K, ?, ?> view, K key, String rawKey, CallerContext caller) {
    this.localStores.isolation().committed(view, caller.bound());
    return this.fallbacks.route(
        view, key, caller, PeerTarget.ofKey(view.name(), rawKey), keyRead(view, key, caller));
  }

  private <K> LocalRead<KeyAnswer> keyRead(
      ResolvedView<K, ?, ?> view, K key, CallerContext caller) {
    return (partition, replica, exact) ->
        new KeyAnswer(
            key, this.localStores.get(view, key, partition, exact, caller.bound()), replica);
  }

  /**
   * The windows of {@code rawKey} whose start lies in [from, to], by default the retention; a
   * lookup that goes to another instance waits for the answer without a thread.
   */
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
