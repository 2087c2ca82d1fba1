package dev.matview.query.local;

import dev.matview.position.InputRecord;
import dev.matview.topology.ResolvedView;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What the broker tells of the source records that lookups name with {@code after=}: whether a
 * record has been written at all, and whether a re-keyed view's store partition holds it when it
 * cannot tell by itself ({@link RekeyedRecords}).
 */
public final class SourceRecords implements AutoCloseable {

  private final String applicationId;

  private final BrokerAdmin admin;

  private final InputEnds ends;

  private final RekeyedRecords rekeyed;

  /** Source records of {@code applicationId}, re-keyed ones followed by polls on {@code polls}. */
  public SourceRecords(
      String applicationId, BrokerAdmin admin, ScheduledExecutorService timer, Executor polls) {
    this.applicationId = applicationId;
    this.admin = admin;
    this.ends = new InputEnds(admin);
    this.rekeyed = new RekeyedRecords(admin, applicationId, timer, polls);
  }

  /** Completes once {@code record} is known written; fails when its partition lacks it. */
  CompletableFuture<Void> written(ResolvedView<?, ?, ?> view, InputRecord record) {
    return this.ends.written(view.name(), record);
  }

  /** Whether the re-keyed {@code view}'s store partition is known to hold {@code record}. */
  boolean rekeyedHolds(
      ResolvedView<?, ?, ?> view, InputRecord record, int partition, long applied, boolean active) {
    return this.rekeyed.holds(
        record, view.inputTopic(this.applicationId), partition, applied, active);
  }

  @Override
  public void close() {
    this.rekeyed.close();
    this.admin.close();
  }
}
