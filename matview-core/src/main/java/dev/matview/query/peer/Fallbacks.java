package dev.matview.query.peer;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Chooses the replica that answers a key lookup. The active replica first, here or on its instance;
 * when it refuses and the caller allows stale reads, at once, the {@link OtherReplicas}: this
 * instance's own replica, then the standbys on other instances, then, while the instances
 * rebalance, the instance that held the active replica before. While this instance cannot place the
 * key at all, {@link Relays} asks another instance to route it. Instances that refused a connection
 * or did not answer in time are skipped while {@link PeerMarks} says they are down. Every outcome
 * is a value; nothing here signals a refusal by throwing.
 */
public final class Fallbacks {

  private final Routing routing;

  private final LocalReads local;

  private final PeerClient peers;

  private final StaleReads staleReads;

  private final LookupGate gate;

  private final Relays relays;

  private final PeerReads forwards;

  private final OtherReplicas others;

  private final ActiveReplicaStreams streams;

  private final MomentaryRefusals momentary;

  /**
   * Fallbacks that read here with {@code localStores} and reach other instances with {@code peers}.
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

  /** Fallbacks as above that route again as {@code momentary} allows and gather key lookups. */
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
    this.gate = gate;
    this.relays = new Relays(routing, peers, marks);
    JsonMapper mapper = JsonMapper.builder().build();
    this.forwards = new PeerReads(peers, marks, new GatheredKeyLookups(peers, mapper, gathering));
    this.others = new OtherReplicas(routing, this.local, this.forwards);
    this.streams = new ActiveReplicaStreams(routing, peers, staleReads, marks, gate);
  }

  /** Whether lookups are refused because this instance shuts down. */
  public LookupGate gate() {
    return this.gate;
  }

  /** The streams of slices asked of an active replica's instance without fallbacks. */
  public ActiveReplicaStreams streams() {
    return this.streams;
  }

  /** Answers a lookup of {@code key} from the first replica that can, or says why none could. */
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
    Placement placement =
        this.gate.isClosed()
            ? this.gate.refusal(view.name(), key)
            : this.routing.placeKey(view, key);
    if (placement instanceof Refusal refusal) {
      return Relays.applies(refusal, caller)
          ? this.relays.relay(view, caller, pathInView, refusal)
          : CompletableFuture.completedFuture(new Routed.Refused<>(refusal));
    }
    return fromReplicas(
        new Asked<>(
            view, key, (KeyReplicas) placement, caller, pathInView, read, this.peers.timeout()));
  }

  /** Reads one partition of {@code replicas}, such as a scan's slice, as {@link #route} does. */
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

  /** The first answer of the replicas, that of another instance waited for without a thread. */
  private <T> CompletableFuture<Routed<T>> fromReplicas(Asked<T> asked) {
    StaleReads stale = this.staleReads.forCaller(asked.caller());
    Routed<T> now = activeHere(asked, stale);
    if (now != null) {
      return afterActive(asked, stale, now);
    }
    CompletableFuture<Routed<T>> answer =
        this.forwards.ask(asked, asked.replicas().active(), stale.enabled() ? stale : null);
    return stale.enabled()
        ? answer.thenCompose((first) -> afterActive(asked, stale, first))
        : answer;
  }

  /** {@code first}, the active replica's answer, or, when it refused, the other replicas'. */
  private <T> CompletableFuture<Routed<T>> afterActive(
      Asked<T> asked, StaleReads stale, Routed<T> first) {
    return (stale.enabled() && first instanceof Routed.Refused<T> refused)
        ? this.others.answer(asked, stale, refused.refusal())
        : CompletableFuture.completedFuture(first);
  }

  /** The active replica's answer when it comes at once, else {@code null}. */
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
}
