package dev.matview.changes;

import dev.matview.peer.PeerPath;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.routing.CallerContext;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * Relays the change streams of partitions another instance owns: asks that instance over the peers'
 * client, signed and carrying what a forwarded lookup carries, with no thread waiting for it, and
 * passes its events and heartbeats on as they came ({@link RelayedStream}). The owner's heartbeats
 * feed the relay's idle deadline, two heartbeats: an owner that sends nothing for that long, paused
 * or cut off without its connection closing, ends the relayed stream with an event that says to
 * reconnect with the last id, and the client's next stream is placed anew.
 */
public final class UpstreamChanges implements AutoCloseable {

  private final PeerClient peers;

  private final Duration idle;

  private final Set<RelayedStream> relays = ConcurrentHashMap.newKeySet();

  private final Map<HostInfo, AtomicInteger> perOwner = new ConcurrentHashMap<>();

  private final int maxPerOwner;

  /**
   * Relays over {@code peers}, each ending once its owner sent nothing for two of the owners'
   * {@code heartbeat}s, at most {@link PeerClient#MAX_RELAYED_STREAMS_PER_INSTANCE} from one owner.
   */
  public UpstreamChanges(PeerClient peers, Duration heartbeat) {
    this(peers, heartbeat, PeerClient.MAX_RELAYED_STREAMS_PER_INSTANCE);
  }

  /** Relays as above, at most {@code maxPerOwner} from one owner at once. */
  UpstreamChanges(PeerClient peers, Duration heartbeat, int maxPerOwner) {
    this.peers = peers;
    this.idle = heartbeat.multipliedBy(2);
    this.maxPerOwner = maxPerOwner;
  }

  /**
   * Opens {@code owner}'s stream of {@code rawKey} in {@code view} after {@code lastEventId} and
   * passes its events to {@code sink}; {@code onEnd} runs once it ends. A stream that cannot be
   * asked for ends at once with an event that says to reconnect; throws {@link
   * TooManyStreamsException} when as many streams are relayed from the owner as one instance's
   * connections carry.
   */
  void relay(
      String view,
      String rawKey,
      PartitionOwner owner,
      @Nullable String lastEventId,
      CallerContext caller,
      ChangeSink sink,
      Runnable onEnd) {
    open(
        view,
        PeerPath.ofKey(view, rawKey, "changes").toString(),
        owner.host(),
        lastEventId,
        caller,
        sink,
        onEnd);
  }

  /**
   * Opens the stream of the changes of {@code view}'s partitions that {@code host} owns, and passes
   * its events to {@code sink}, which it closes when that stream ends; throws {@link
   * TooManyStreamsException} when as many streams are relayed from {@code host} as one instance's
   * connections carry.
   */
  void relayView(String view, HostInfo host, CallerContext caller, ChangeSink sink) {
    open(view, PeerPath.of(view, "changes").toString(), host, null, caller, sink, () -> {});
  }

  /** How many relayed streams are open. */
  public int relayed() {
    return this.relays.size();
  }

  private void open(
      String view,
      String path,
      HostInfo host,
      @Nullable String lastEventId,
      CallerContext caller,
      ChangeSink sink,
      Runnable onEnd) {
    AtomicInteger fromOwner = this.perOwner.computeIfAbsent(host, (owner) -> new AtomicInteger());
    if (fromOwner.incrementAndGet() > this.maxPerOwner) {
      fromOwner.decrementAndGet();
      throw new TooManyStreamsException(view, host.host() + ":" + host.port(), this.maxPerOwner);
    }
    RelayedStream[] self = new RelayedStream[1];
    RelayedStream relay =
        new RelayedStream(
            sink,
            lastEventId,
            () -> {
              this.relays.remove(self[0]);
              fromOwner.decrementAndGet();
              onEnd.run();
            });
    self[0] = relay;
    this.relays.add(relay);
    sink.whenGone(relay::end);
    try {
      Future<Void> exchange = this.peers.stream(host, path, lastEventId, caller, this.idle, relay);
      if (exchange == null) {
        relay.reconnect("this instance has not agreed on a secret with the others yet");
        return;
      }
      relay.upstream(exchange);
    } catch (RuntimeException ex) {
      relay.reconnect("the partition's owner could not be asked");
    }
  }

  /** Ends every relayed stream, each with an event that says to reconnect. */
  @Override
  public void close() {
    for (RelayedStream relay : this.relays) {
      relay.reconnect("this instance stops");
    }
  }
}
