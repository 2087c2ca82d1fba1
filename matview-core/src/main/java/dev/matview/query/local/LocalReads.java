package dev.matview.query.local;

import dev.matview.position.ReadBound;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Replica;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.StaleReads;
import dev.matview.topology.ResolvedView;
import java.util.List;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.jspecify.annotations.Nullable;

/**
 * Reads this instance's replica of a partition for a key lookup, within the caller's lag bound, and
 * tells every way it can fail as a value: a refusal when the replica cannot answer now, a failure
 * that says what failed when the store or the view's serde does.
 */
public final class LocalReads {

  private static final Log logger = LogFactory.getLog(LocalReads.class);

  private final LocalStores stores;

  private final LocalInstance instance;

  private final LocalReplicas replicas;

  public LocalReads(LocalStores stores, LocalInstance instance, LocalReplicas replicas) {
    this.stores = stores;
    this.instance = instance;
    this.replicas = replicas;
  }

  /**
   * Reads the active replica here. One known to run caught up answers exactly (Kafka Streams
   * confirms it the first time); one that lags, or that Kafka Streams does not yet run as active
   * (it is being assigned, or was a standby a moment ago), answers only when {@code stale} allows
   * its known lag, as a stale read; a replica whose lag is not known never answers stale.
   */
  public <T> Routed<T> active(
      ResolvedView<?, ?, ?> view,
      @Nullable Object key,
      int partition,
      StaleReads stale,
      ReadBound bound,
      LocalRead<T> read) {
    Refusal behind = this.stores.positions().behind(view, key, partition, bound, true);
    if (behind != null) {
      return new Routed.Refused<>(behind);
    }
    LocalReplicas.State state = this.replicas.state(view.storeName(), partition);
    boolean lagKnown = state != null && state.lagKnown();
    long lag = (state != null && state.lagKnown()) ? state.lag() : 0;
    boolean staleAllowed = stale.enabled() && lagKnown && lag <= stale.maxLag();
    try {
      if (state == null || (state.role() == Replica.Role.ACTIVE && lag == 0)) {
        try {
          return answer(view, partition, read.read(partition, replica(0), true), true, bound);
        } catch (ViewUnavailableException ex) {
          if (!staleAllowed) {
            throw ex;
          }
        }
      } else if (!staleAllowed) {
        this.stores.refusals().requireCaughtUp(view, key, partition);
        return answer(view, partition, read.read(partition, replica(lag), true), true, bound);
      }
      return answer(view, partition, read.read(partition, replica(lag), false), false, bound);
    } catch (ViewUnavailableException ex) {
      return notNow(view, partition, bound, Refusal.of(ex));
    } catch (InvalidStateStoreException ex) {
      // an iterator's store closed under the read: the partition moved, the store did not fail
      return notNow(
          view,
          partition,
          bound,
          Refusal.of(this.stores.refusals().notServing(view, key, partition, ex)));
    } catch (KafkaException ex) {
      return new Routed.Refused<>(failed(view, key, partition, ex));
    }
  }

  /**
   * The refusal of the active replica here that cannot answer now, which a bound read waits out.
   */
  private <T> Routed<T> notNow(
      ResolvedView<?, ?, ?> view, int partition, ReadBound bound, Refusal refusal) {
    return new Routed.Refused<>(
        this.stores.positions().waitable(refusal, partition, bound, view.storeName()));
  }

  /** {@code value}, just read, with the position of the replica it was read from. */
  private <T> Routed<T> answer(
      ResolvedView<?, ?, ?> view, int partition, T value, boolean runningActive, ReadBound bound) {
    return new Routed.Local<>(
        value, this.stores.positions().position(view, partition, runningActive, bound));
  }

  private Replica replica(long lag) {
    return new Replica(this.instance.describe(), Replica.Role.ACTIVE, lag);
  }

  /**
   * Reads this instance's replica of {@code partition} when it has one within the lag bound: a
   * standby or previous owner as the directory says ({@code named}), or any replica it knows the
   * lag of; else adds why not to {@code refusals} and answers {@code null}, or, when the replica
   * has not yet applied what the caller's bound asks for, the refusal that says what to wait for.
   */
  public <T> @Nullable Routed<T> replica(
      ResolvedView<?, ?, ?> view,
      @Nullable Object key,
      int partition,
      boolean named,
      StaleReads stale,
      ReadBound bound,
      LocalRead<T> read,
      List<String> refusals) {
    LocalReplicas.State state = this.replicas.state(view.storeName(), partition);
    if (state == null && !named) {
      return null;
    }
    if (state == null || state.lag() > stale.maxLag()) {
      refusals.add(
          "this instance's replica lags "
              + (state != null && state.lagKnown()
                  ? state.lag() + " offsets"
                  : "an unknown number of offsets"));
      return null;
    }
    Refusal behind = this.stores.positions().behind(view, key, partition, bound, false);
    if (behind != null) {
      refusals.add("this instance's replica: " + behind.detail());
      return (behind.behind() != null) ? new Routed.Refused<>(behind) : null;
    }
    Replica replica = new Replica(this.instance.describe(), state.role(), state.lag());
    try {
      return answer(view, partition, read.read(partition, replica, false), false, bound);
    } catch (ViewUnavailableException ex) {
      refusals.add("this instance's replica: " + ex.getMessage());
    } catch (InvalidStateStoreException ex) {
      refusals.add(
          "this instance's replica: "
              + this.stores.refusals().notServing(view, key, partition, ex).getMessage());
    } catch (KafkaException ex) {
      refusals.add("this instance's replica: " + failed(view, key, partition, ex).detail());
    }
    return null;
  }

  /**
   * A failure of the store or serde, told as what failed and logged with its trace at WARN here.
   */
  static Refusal failed(
      ResolvedView<?, ?, ?> view, @Nullable Object key, int partition, KafkaException ex) {
    String where = "partition " + partition + " of view '" + view.name() + "'";
    String what = (key != null) ? "this key" : "its entries";
    String detail =
        ex instanceof SerializationException
            ? "The value of "
                + what
                + " in "
                + where
                + " cannot be read with the view's value type "
                + view.definition().aggregateType().getSimpleName()
                + " (the serde failed; logged by this instance)"
            : "The store of "
                + where
                + " failed to read "
                + what
                + " ("
                + ex.getClass().getSimpleName()
                + ", logged by this instance)";
    logger.warn((key != null) ? detail.replace("this key", "key '" + key + "'") : detail, ex);
    return new Refusal(
        Refusal.Reason.FAILED, view.name(), key, partition, detail, Refusal.REBALANCE_RETRY);
  }
}
