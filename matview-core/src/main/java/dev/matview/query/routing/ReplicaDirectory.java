package dev.matview.query.routing;

import dev.matview.topology.ResolvedView;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.StreamsNotStartedException;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * Who can answer each partition of each view: one {@link ViewReplicas} per view, built from the
 * Kafka Streams metadata of every instance and held in one immutable snapshot that is swapped
 * whole. A lookup reads the snapshot: no metadata call, no lock, no copy.
 *
 * <p>Kafka Streams' state changes rebuild the snapshot ({@link #onChange}). While the instances
 * rebalance, a view keeps the last snapshot in which every partition had an owner: a new one
 * replaces it once it is complete too, or once Kafka Streams is running again. A lookup rebuilds as
 * well, at most once per refresh interval and never waiting for another rebuild, while its view has
 * no complete snapshot, while Kafka Streams rebalances (a new assignment may arrive without a
 * change of state), or when the state changed since the last build (a listener set later may have
 * replaced this one).
 */
public final class ReplicaDirectory implements KafkaStreams.StateListener {

  private static final Log logger = LogFactory.getLog(ReplicaDirectory.class);

  private final Map<String, String> inputTopics;

  private final long refreshNanos;

  private final LongSupplier nanoTime;

  private final ReentrantLock rebuilding = new ReentrantLock();

  private final InstanceMemory memory;

  private volatile @Nullable DirectorySource source;

  private volatile DirectorySnapshot snapshot = DirectorySnapshot.EMPTY;

  private volatile long nextRefresh;

  /** A directory of {@code views} that a lookup rebuilds at most every {@code refreshInterval}. */
  public ReplicaDirectory(
      Collection<? extends ResolvedView<?, ?, ?>> views,
      String applicationId,
      Duration refreshInterval,
      InstanceMemory memory) {
    this(views, applicationId, refreshInterval, memory, System::nanoTime);
  }

  ReplicaDirectory(
      Collection<? extends ResolvedView<?, ?, ?>> views,
      String applicationId,
      Duration refreshInterval,
      InstanceMemory memory,
      LongSupplier nanoTime) {
    this.memory = memory;
    Map<String, String> inputTopics = new LinkedHashMap<>();
    views.forEach((view) -> inputTopics.put(view.storeName(), view.inputTopic(applicationId)));
    this.inputTopics = Map.copyOf(inputTopics);
    this.refreshNanos = refreshInterval.toNanos();
    this.nanoTime = nanoTime;
    this.nextRefresh = nanoTime.getAsLong();
  }

  /** Follows {@code streams}, which has just started, in place of any Kafka Streams before it. */
  public void attach(KafkaStreams streams) {
    attach(DirectorySource.of(streams));
  }

  public void attach(DirectorySource source) {
    this.rebuilding.lock();
    try {
      this.snapshot = DirectorySnapshot.EMPTY;
      this.source = source;
      rebuild(source);
    } finally {
      this.rebuilding.unlock();
    }
  }

  /** Forgets {@code streams}, which has closed; lookups say Kafka Streams is not started. */
  public void detach(KafkaStreams streams) {
    this.rebuilding.lock();
    try {
      if (this.source instanceof DirectorySource.Streams followed
          && followed.streams() == streams) {
        this.source = null;
        this.snapshot = DirectorySnapshot.EMPTY;
      }
    } finally {
      this.rebuilding.unlock();
    }
  }

  /** Rebuilds the snapshot from the metadata of the Kafka Streams followed, in its new state. */
  @Override
  public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
    DirectorySource current = this.source;
    if (current == null) {
      return;
    }
    this.rebuilding.lock();
    try {
      if (this.source == current) {
        rebuild(current);
      }
    } finally {
      this.rebuilding.unlock();
    }
  }

  /** The state of the Kafka Streams followed, or {@code null} when none has started. */
  public KafkaStreams.@Nullable State state() {
    DirectorySource current = this.source;
    return (current != null) ? current.state() : null;
  }

  /**
   * The replicas of the view whose store is {@code storeName}, or {@code null} while no snapshot in
   * which every partition of it has an owner has been built since Kafka Streams started.
   */
  public @Nullable ViewReplicas replicas(String storeName) {
    DirectorySource followed = this.source;
    if (followed == null) {
      return null;
    }
    DirectorySnapshot current = this.snapshot;
    ViewReplicas replicas = current.views().get(storeName);
    KafkaStreams.State state = followed.state();
    if (replicas == null
        || !replicas.complete()
        || state != KafkaStreams.State.RUNNING
        || current.state() != state) {
      refresh(followed);
      replicas = this.snapshot.views().get(storeName);
    }
    return (replicas != null && replicas.complete()) ? replicas : null;
  }

  private void refresh(DirectorySource followed) {
    if (this.nanoTime.getAsLong() - this.nextRefresh < 0 || !this.rebuilding.tryLock()) {
      return;
    }
    try {
      if (this.source == followed && this.nanoTime.getAsLong() - this.nextRefresh >= 0) {
        rebuild(followed);
      }
    } finally {
      this.rebuilding.unlock();
    }
  }

  /** Builds and swaps in a new snapshot; called with the rebuilding lock held. */
  private void rebuild(DirectorySource followed) {
    this.nextRefresh = this.nanoTime.getAsLong() + this.refreshNanos;
    KafkaStreams.State state = followed.state();
    DirectorySnapshot previous = this.snapshot;
    if (!state.isRunningOrRebalancing()) {
      this.snapshot =
          new DirectorySnapshot(state, previous.views(), previous.stable(), previous.hosts());
      return;
    }
    Collection<StreamsMetadata> metadata;
    try {
      metadata = followed.metadata();
    } catch (StreamsNotStartedException | IllegalStateException ex) {
      if (logger.isDebugEnabled()) {
        logger.debug("Kafka Streams left state " + state + " while its metadata was read", ex);
      }
      return;
    }
    DirectorySnapshot next = previous.next(state, metadata, this.inputTopics);
    this.snapshot = next;
    if (state == KafkaStreams.State.RUNNING) {
      this.memory.remember(next.hosts());
    }
  }

  /** The instances the last snapshot names, or while none, those remembered from the last run. */
  public Collection<HostInfo> instances() {
    Set<HostInfo> named = this.snapshot.hosts();
    return named.isEmpty() ? this.memory.recalled() : named;
  }

  /** Whether the last snapshot names {@code host}, which may then be asked again. */
  public boolean names(HostInfo host) {
    return this.snapshot.hosts().contains(host);
  }
}
