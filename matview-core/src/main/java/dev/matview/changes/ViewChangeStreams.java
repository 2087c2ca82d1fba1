package dev.matview.changes;

import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.Routing;
import dev.matview.replica.AppliedOffset;
import dev.matview.replica.StorePositions;
import dev.matview.topology.ResolvedView;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * Opens streams of every key's changes in a view: one part per partition of this instance, and,
 * unless another instance asked, every other instance's view stream relayed.
 */
final class ViewChangeStreams {

  private final Routing routing;

  private final StorePositions positions;

  private final UpstreamChanges upstream;

  private final LiveStreams live;

  ViewChangeStreams(
      Routing routing, StorePositions positions, UpstreamChanges upstream, LiveStreams live) {
    this.routing = routing;
    this.positions = positions;
    this.upstream = upstream;
    this.live = live;
  }

  /**
   * Opens the stream of {@code view} into {@code sink} in {@code slot}, from now on: a {@code
   * lastEventId} is answered with a skipped event, since a view's stream cannot tell where each
   * partition stopped.
   */
  void open(
      ResolvedView<?, ?, ?> view,
      @Nullable String lastEventId,
      CallerContext caller,
      ChangeSink sink,
      StreamSlots.Slot slot) {
    ViewStream stream = new ViewStream(sink, slot::release);
    this.live.add(stream);
    try {
      if (lastEventId != null) {
        try {
          stream.send(
              new ChangeEvent(
                  ChangeEvent.Kind.SKIPPED,
                  "{\"reason\":\"a view's stream starts from now; follow a key's stream to go"
                      + " on after an event\"}",
                  null));
        } catch (IOException ex) {
          stream.close();
          return;
        }
      }
      ViewEvents events = this.live.events(view);
      Set<HostInfo> others = new LinkedHashSet<>();
      for (PartitionOwner owner : this.routing.owners(view)) {
        if (!this.routing.isLocal(owner)) {
          others.add(owner.host());
          continue;
        }
        AppliedOffset applied = this.positions.of(view.storeName(), owner.partition());
        if (applied == null) {
          continue;
        }
        int partition = owner.partition();
        ChangeStream part = this.live.open(null, events, partition, stream, () -> {});
        stream.add(part, applied);
        applied.changes().listen(part, applied.begun());
        part.start(List.of(), List.of(), applied.begun(), Integer.MAX_VALUE, null);
      }
      boolean relays = !caller.forwarded() && !others.isEmpty();
      slot.opened(relays ? "relayed" : "local");
      if (relays) {
        CallerContext observed = caller.withObservation(slot.observation());
        for (HostInfo host : others) {
          this.upstream.relayView(view.name(), host, observed, stream);
        }
      }
    } catch (RuntimeException ex) {
      slot.refused(ex);
      stream.close();
      throw ex;
    }
  }
}
