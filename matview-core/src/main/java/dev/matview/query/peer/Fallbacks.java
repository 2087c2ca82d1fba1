package dev.matview.query.peer;

import dev.matview.peer.PeerResponse;
import dev.matview.peer.http.BodyListener;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Placement;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.query.local.LocalRead;
import dev.matview.query.local.LocalReads;
import dev.matview.query.local.LocalReplicas;
import dev.matview.query.local.LocalStores;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.LookupGate;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.StaleReads;
import dev.matview.topology.ResolvedView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Chooses the replica that answers a key lookup. The active replica first, here or on its instance;
 * when it refuses and the caller allows stale reads, at once: this instance's own replica, then the
 * standbys on other instances, then, while the instances rebalance, the instance that held the
 * active replica before; each only within the caller's lag bound. While this instance cannot place
 * the key at all, {@link Relays} asks another instance to route it. Instances that refused a
 * connection or did not answer in time are skipped while {@link PeerMarks} says they are down.
 * Every outcome is a value; nothing here signals a refusal by throwing.
 */
public final class Fallbacks {

  private static final Log logger = LogFactory.getLog(Fallbacks.class);

  private final Routing routing;

  private final LocalReads local;

  private final PeerClient peers;

  private final StaleReads staleReads;

  private final PeerMarks marks;

  private final LookupGate gate;

  private final Relays relays;

  private final PeerReads forwards;

  private final MomentaryRefusals momentary;

  /**
   * Fallbacks that find replicas through {@code routing}, read this instance's with {@code
   * localStores} (judged by {@code localReplicas}), reach others with {@code peers} unless {@code
   * marks} says they are down, allow stale reads as {@code staleReads} says, and refuse at once
   * while {@code gate} is closed.
   */
  public Fallbacks(
      Routing routing,
      LocalStores localStores,
      PeerClient peers,
      LocalInstance localInstance,
      LocalReplicas localReplicas,
      StaleReads staleReads,
      PeerMarks marks,
      LookupGate gate) {
    this(
        routing,
        localStores,
        peers,
        localInstance,
        localReplicas,
        staleReads,
        marks,
        gate,
        MomentaryRefusals.NONE,
        Pause.NONE);
  }

  /**
   * Fallbacks as above that route a key or window lookup again, as {@code momentary} allows, while
   * every replica refuses it for a moment, and send key lookups bound for one instance together
   * after a gathering window kept on {@code timer}, handed to {@code workers}.
   */
  public Fallbacks(
      Routing routing,
      LocalStores localStores,
      PeerClient peers,
      LocalInstance localInstance,
      LocalReplicas localReplicas,
      StaleReads staleReads,
      PeerMarks marks,
      LookupGate gate,
      MomentaryRefusals momentary,
      ScheduledExecutorService timer,
      Executor workers) {
    this(
        routing,
        localStores,
        peers,
        localInstance,
        localReplicas,
        staleReads,
        marks,
        gate,
        momentary,
        Pause.of(GatheredKeyLookups.GATHERING, timer, workers));
  }

  private Fallbacks(
      Routing routing,
      LocalStores localStores,
      PeerClient peers,
      LocalInstance localInstance,
      LocalReplicas localReplicas,
      StaleReads staleReads,
      PeerMarks marks,
      LookupGate gate,
      MomentaryRefusals momentary,
      Pause gathering) {
    this.routing = routing;
    this.momentary = momentary;
    this.local = new LocalReads(localStores, localInstance, localReplicas);
    this.peers = peers;
    this.staleReads = staleReads;
    this.marks = marks;
    this.gate = gate;
    this.relays = new Relays(routing, peers, marks);
    JsonMapper mapper = JsonMapper.builder().build();
    this.forwards = new PeerReads(peers, marks, new GatheredKeyLookups(peers, mapper, gathering));
  }

  /** Whether lookups are refused because this instance shuts down. */
  public LookupGate gate() {
    return this.gate;
  }

  /**
   * Answers a lookup of {@code key} from the first replica that can, or says why none could. A
   * lookup that goes to another instance, or is relayed to one because this instance cannot place
   * the key, waits for its answer without a thread: the future completes when it comes. A lookup
   * that every replica refuses for a moment is routed again after a pause ({@link
   * MomentaryRefusals}), without a thread. A lookup read here is answered before this returns.
   */
  public <K, T> CompletableFuture<Routed<T>> route(
      ResolvedView<K, ?, ?> view,
      K key,
      CallerContext caller,
      PeerTarget pathInView,
      LocalRead<T> read) {
    return this.momentary.answer(caller, () -> routeOnce(view, key, caller, pathInView, read));
  }

  private <K, T> CompletableFuture<Routed<T>> routeOnce(
      ResolvedView<K, ?, ?> view,
      K key,
      CallerContext caller,
      PeerTarget pathInView,
      LocalRead<T> read) {
    Placement placement = placement(view, key);
    if (placement instanceof Refusal refusal) {
      return Relays.applies(refusal, caller)
          ? this.relays.relay(view, caller, pathInView, refusal)
          : CompletableFuture.completedFuture(new Routed.Refused<>(refusal));
    }
    return fromReplicas(
        new Asked<>(
            view, key, (KeyReplicas) placement, caller, pathInView, read, this.peers.timeout()));
  }

  /**
   * The replicas of {@code key}, or why none is known: this instance shuts down or cannot place it.
   */
  private <K> Placement placement(ResolvedView<K, ?, ?> view, K key) {
    return this.gate.isClosed()
        ? this.gate.refusal(view.name(), key)
        : this.routing.placeKey(view, key);
  }

  /**
   * Reads one partition whose replicas are {@code replicas}, such as a scan's slice of it, from the
   * first replica that can, as {@link #route} reads a key's, asking another instance for at most
   * {@code timeout}.
   */
  public <T> CompletableFuture<Routed<T>> routePartition(
      ResolvedView<?, ?, ?> view,
      KeyReplicas replicas,
      CallerContext caller,
      PeerTarget pathInView,
      LocalRead<T> read,
      Duration timeout) {
    if (this.gate.isClosed()) {
      return CompletableFuture.completedFuture(
          new Routed.Refused<>(this.gate.refusal(view.name(), null)));
    }
    return fromReplicas(new Asked<>(view, null, replicas, caller, pathInView, read, timeout));
  }

  /**
   * Asks the instance of {@code replicas}' active replica for a stream of slices with {@code
   * pathAndQuery}, answers of {@code type}, its body handed to {@code listener} as it arrives, when
   * that replica is the only one a read may go to: it is on another instance not marked down, the
   * caller's request was not forwarded here, asks for no position and allows no stale read. Else,
   * or when the stream cannot be asked for, {@code null}: the read then goes as {@link
   * #routePartition} routes it.
   *
   * @return the exchange, whose cancelling closes its connection
   */
  public @Nullable Future<Void> openStream(
      KeyReplicas replicas,
      CallerContext caller,
      Supplier<String> pathAndQuery,
      String type,
      Duration timeout,
      BodyListener listener) {
    PartitionOwner active = replicas.active();
    if (this.gate.isClosed()
        || this.routing.isLocal(active)
        || caller.forwarded()
        || caller.bound().isBound()
        || this.staleReads.forCaller(caller).enabled()
        || this.marks.isDown(active.host())) {
      return null;
    }
    try {
      return this.peers.stream(active, pathAndQuery.get(), type, caller, timeout, listener);
    } catch (RuntimeException ex) {
      logger.debug(
          "A stream of slices could not be asked of " + active.describe() + ": " + ex.getMessage());
      return null;
    }
  }

  /**
   * The first answer of the replicas; one that another instance gives is waited for without a
   * thread.
   */
  private <T> CompletableFuture<Routed<T>> fromReplicas(Asked<T> asked) {
    StaleReads stale = this.staleReads.forCaller(asked.caller());
    Routed<T> now = activeHere(asked, stale);
    if (now != null) {
      return afterActive(asked, stale, now);
    }
    CompletableFuture<Routed<T>> answer =
        this.forwards.ask(asked, asked.replicas().active(), forwardedStale(stale));
    return stale.enabled()
        ? answer.thenCompose((first) -> afterActive(asked, stale, first))
        : answer;
  }

  /** {@code first}, the active replica's answer, or, when it refused, the other replicas'. */
  private <T> CompletableFuture<Routed<T>> afterActive(
      Asked<T> asked, StaleReads stale, Routed<T> first) {
    return (stale.enabled() && first instanceof Routed.Refused<T> refused)
        ? fromOthers(asked, stale, refused.refusal())
        : CompletableFuture.completedFuture(first);
  }

  /**
   * The active replica's answer when it comes at once: read here, or refused to a forwarded
   * request; {@code null} when it is to be asked of its instance.
   */
  private <T> @Nullable Routed<T> activeHere(Asked<T> asked, StaleReads stale) {
    PartitionOwner active = asked.replicas().active();
    CallerContext caller = asked.caller();
    if (this.routing.isLocal(active)) {
      return this.local.active(
          asked.view(), asked.key(), active.partition(), stale, caller.bound(), asked.read());
    }
    if (caller.forwarded()) {
      return new Routed.Refused<>(
          Refusal.of(ViewUnavailableException.notOwner(asked.view().name(), asked.key(), active)));
    }
    return null;
  }

  /** The lag bound that goes with a request to another instance, when stale reads are allowed. */
  private static @Nullable StaleReads forwardedStale(StaleReads stale) {
    return stale.enabled() ? stale : null;
  }

  private <T> CompletableFuture<Routed<T>> fromOthers(
      Asked<T> asked, StaleReads stale, Refusal activeRefusal) {
    KeyReplicas replicas = asked.replicas();
    List<String> refusals = new ArrayList<>();
    List<PartitionOwner> remote = new ArrayList<>(replicas.standbys().size() + 1);
    boolean localNamed = false;
    for (PartitionOwner standby : replicas.standbys()) {
      if (this.routing.isLocal(standby)) {
        localNamed = true;
      } else {
        remote.add(standby);
      }
    }
    PartitionOwner previous = replicas.previousActive();
    if (previous != null && this.routing.isLocal(previous)) {
      localNamed = true;
    } else if (previous != null) {
      remote.add(previous);
    }
    @Nullable Refusal localBehind = null;
    if (!this.routing.isLocal(replicas.active())) {
      Routed<T> answer =
          this.local.replica(
              asked.view(),
              asked.key(),
              replicas.partition(),
              localNamed,
              stale,
              asked.caller().bound(),
              asked.read(),
              refusals);
      if (answer instanceof Routed.Refused<T> behind && behind.refusal().behind() != null) {
        localBehind = behind.refusal();
      } else if (answer != null) {
        return CompletableFuture.completedFuture(answer);
      }
    }
    Refusal behind = localBehind;
    OtherReplicas<T> others =
        new OtherReplicas<>(
            asked,
            asked.caller().forwarded() ? List.of() : remote,
            stale,
            refusals,
            () ->
                noneAnswered(
                    asked.view(), asked.key(), replicas, stale, activeRefusal, behind, refusals));
    return others.from(0);
  }

  private static <T> Routed<T> noneAnswered(
      ResolvedView<?, ?, ?> view,
      @Nullable Object key,
      KeyReplicas replicas,
      StaleReads stale,
      Refusal activeRefusal,
      @Nullable Refusal localBehind,
      List<String> refusals) {
    if (activeRefusal.behind() != null) {
      return new Routed.Refused<>(activeRefusal);
    }
    if (localBehind != null) {
      return new Routed.Refused<>(localBehind);
    }
    return new Routed.Refused<>(
        new Refusal(
            activeRefusal.reason() == Refusal.Reason.FAILED
                ? Refusal.Reason.FAILED
                : Refusal.Reason.UNAVAILABLE,
            view.name(),
            key,
            replicas.partition(),
            "The active replica of partition "
                + replicas.partition()
                + " of view '"
                + view.name()
                + "' cannot answer ("
                + activeRefusal.detail()
                + ") and no other replica within "
                + stale.maxLag()
                + " offsets could"
                + (refusals.isEmpty() ? " (there is none)" : ": " + String.join("; ", refusals)),
            activeRefusal.retryAfter()));
  }

  /** The replicas on other instances, asked in turn until one answers the lookup. */
  private final class OtherReplicas<T> {

    private final Asked<T> asked;

    private final List<PartitionOwner> remote;

    private final StaleReads stale;

    private final List<String> refusals;

    private final Supplier<Routed<T>> noneAnswered;

    OtherReplicas(
        Asked<T> asked,
        List<PartitionOwner> remote,
        StaleReads stale,
        List<String> refusals,
        Supplier<Routed<T>> noneAnswered) {
      this.asked = asked;
      this.remote = remote;
      this.stale = stale;
      this.refusals = refusals;
      this.noneAnswered = noneAnswered;
    }

    /** The first answer of the replicas from the {@code next}th on, or why none answered. */
    CompletableFuture<Routed<T>> from(int next) {
      if (next == this.remote.size()) {
        return CompletableFuture.completedFuture(this.noneAnswered.get());
      }
      return Fallbacks.this
          .forwards
          .ask(this.asked, this.remote.get(next), this.stale)
          .thenCompose(
              (answer) -> {
                if (answer instanceof Routed.Refused<T> refused) {
                  this.refusals.add("a replica on another instance: " + refused.refusal().detail());
                } else if (answeredLookup(((Routed.Relayed<T>) answer).response())) {
                  return CompletableFuture.completedFuture(answer);
                } else {
                  this.refusals.add(
                      "a replica on another instance answered "
                          + ((Routed.Relayed<T>) answer).response().status());
                }
                return from(next + 1);
              });
    }
  }

  private static boolean answeredLookup(PeerResponse response) {
    return response.isSuccess() || response.status() == 404;
  }
}
