package dev.matview.query.peer;

import dev.matview.peer.PeerResponse;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.local.LocalReads;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.StaleReads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The replicas of a partition other than its active one, asked for a read that the active replica
 * refused while the caller allows stale reads: this instance's own replica first, then the standbys
 * on other instances, then, while the instances rebalance, the instance that held the active
 * replica before; each only within the caller's lag bound, each asked once the one before refused,
 * without a thread waiting.
 */
final class OtherReplicas {

  private final Routing routing;

  private final LocalReads local;

  private final PeerReads forwards;

  OtherReplicas(Routing routing, LocalReads local, PeerReads forwards) {
    this.routing = routing;
    this.local = local;
    this.forwards = forwards;
  }

  /** The first answer of the other replicas of {@code asked}, or why none answered. */
  <T> CompletableFuture<Routed<T>> answer(Asked<T> asked, StaleReads stale, Refusal activeRefusal) {
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
    Round<T> round =
        new Round<>(
            asked,
            asked.caller().forwarded() ? List.of() : remote,
            stale,
            activeRefusal,
            localBehind,
            refusals);
    return from(round, 0);
  }

  /** The first answer of the replicas from the {@code next}th on, or why none answered. */
  private <T> CompletableFuture<Routed<T>> from(Round<T> round, int next) {
    if (next == round.remote().size()) {
      return CompletableFuture.completedFuture(round.noneAnswered());
    }
    return this.forwards
        .ask(round.asked(), round.remote().get(next), round.stale())
        .thenCompose(
            (answer) -> {
              if (answer instanceof Routed.Refused<T> refused) {
                round
                    .refusals()
                    .add("a replica on another instance: " + refused.refusal().detail());
              } else if (answeredLookup(((Routed.Relayed<T>) answer).response())) {
                return CompletableFuture.completedFuture(answer);
              } else {
                round
                    .refusals()
                    .add(
                        "a replica on another instance answered "
                            + ((Routed.Relayed<T>) answer).response().status());
              }
              return from(round, next + 1);
            });
  }

  /** One read asked of the {@code remote} replicas in turn, with what each replica said. */
  private record Round<T>(
      Asked<T> asked,
      List<PartitionOwner> remote,
      StaleReads stale,
      Refusal activeRefusal,
      @Nullable Refusal localBehind,
      List<String> refusals) {

    /** Why no replica answered: a refusal behind the bound, else what each said. */
    private Routed<T> noneAnswered() {
      Refusal active = this.activeRefusal;
      if (active.behind() != null) {
        return new Routed.Refused<>(active);
      }
      if (this.localBehind != null) {
        return new Routed.Refused<>(this.localBehind);
      }
      String view = this.asked.view().name();
      int partition = this.asked.replicas().partition();
      return new Routed.Refused<>(
          new Refusal(
              active.reason() == Refusal.Reason.FAILED
                  ? Refusal.Reason.FAILED
                  : Refusal.Reason.UNAVAILABLE,
              view,
              this.asked.key(),
              partition,
              "The active replica of partition "
                  + partition
                  + " of view '"
                  + view
                  + "' cannot answer ("
                  + active.detail()
                  + ") and no other replica within "
                  + this.stale.maxLag()
                  + " offsets could"
                  + (this.refusals.isEmpty()
                      ? " (there is none)"
                      : ": " + String.join("; ", this.refusals)),
              active.retryAfter()));
    }
  }

  private static boolean answeredLookup(PeerResponse response) {
    return response.isSuccess() || response.status() == 404;
  }
}
