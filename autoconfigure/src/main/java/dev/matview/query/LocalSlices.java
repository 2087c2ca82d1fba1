package dev.matview.query;

import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The serving end of a scan across instances: this instance's slice of one partition it owns, for
 * the instance that coordinates the scan, read from its local stores and written in the peer wire
 * format of {@link PeerSlices}.
 */
public final class LocalSlices {

  private final ViewQueryService views;

  private final Routing routing;

  private final LocalStores localStores;

  private final ScanBounds bounds;

  private final ScanCursors scanCursors;

  private final PeerSlices slices;

  LocalSlices(
      ViewQueryService views,
      Routing routing,
      LocalStores localStores,
      ScanBounds bounds,
      ScanCursors scanCursors,
      PeerSlices slices) {
    this.views = views;
    this.routing = routing;
    this.localStores = localStores;
    this.bounds = bounds;
    this.scanCursors = scanCursors;
    this.slices = slices;
  }

  /** This instance's slice of one partition's keys. */
  public PeerSlices.SliceBody<KeyItem> keys(
      String viewName,
      int partition,
      @Nullable String from,
      @Nullable String to,
      @Nullable String after,
      int limit) {
    ResolvedView<?, ?, ?> view = this.views.table(viewName, "view", ViewScanService.SCAN_WINDOWS);
    return this.slices.keysBody(viewName, localKeySliceOf(view, partition, from, to, after, limit));
  }

  private <K> Slice<KeyItem> localKeySliceOf(
      ResolvedView<K, ?, ?> view,
      int partition,
      @Nullable String from,
      @Nullable String to,
      @Nullable String after,
      int limit) {
    requireLocal(view, partition);
    return this.localStores.keys(
        view,
        partition,
        this.bounds.key(view, "from", from),
        this.bounds.key(view, "to", to),
        this.scanCursors.position(view, after),
        this.bounds.limit(view, limit));
  }

  /** This instance's slice of one partition's windows. */
  public PeerSlices.SliceBody<PeerSlices.PeerWindow> windows(
      String viewName, int partition, Instant from, Instant to, @Nullable String after, int limit) {
    ResolvedView<?, ?, ?> view = this.views.view(viewName);
    ViewWindow window = ViewQueryService.windowOf(view, ViewScanService.SCAN_KEYS);
    TimeRange range = TimeRange.exactly(viewName, from, to);
    requireLocal(view, partition);
    return this.slices.windowsBody(
        viewName,
        this.localStores.windowItems(
            view,
            window,
            partition,
            range.from(),
            range.to(),
            this.scanCursors.position(view, after),
            this.bounds.limit(view, limit)));
  }

  private void requireLocal(ResolvedView<?, ?, ?> view, int partition) {
    List<PartitionOwner> owners = this.routing.owners(view);
    if (partition < 0 || partition >= owners.size()) {
      throw new InvalidQueryException(
          view.name(),
          "partition",
          "View '" + view.name() + "' has partitions 0 to " + (owners.size() - 1));
    }
    PartitionOwner owner = owners.get(partition);
    if (!this.routing.isLocal(owner)) {
      throw ViewUnavailableException.notOwner(view.name(), null, owner);
    }
  }
}
