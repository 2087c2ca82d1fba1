package dev.matview.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a view's handle calls: what it asks of the position, how long a call may retry, the records
 * it waits for, the stale-read options and the size of scan pages.
 *
 * @param consistency what a call asks of the position
 * @param deadline how long one call may take, retries included
 * @param after the input records a call waits for
 * @param allowStale whether a standby may answer ({@code allowStale}), the server's default when
 *     {@code null}
 * @param maxLag the most offsets a standby may lag ({@code maxLag}), the server's default when
 *     {@code null}
 * @param pageSize the items a scan asks for per page
 */
record CallOptions(
    Consistency consistency,
    Duration deadline,
    List<InputRecord> after,
    @Nullable Boolean allowStale,
    @Nullable Long maxLag,
    int pageSize) {

  CallOptions {
    Objects.requireNonNull(consistency, "consistency must not be null");
    Objects.requireNonNull(deadline, "deadline must not be null");
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("deadline must be positive, was " + deadline);
    }
    after = List.copyOf(after);
    if (maxLag != null && maxLag < 0) {
      throw new IllegalArgumentException("maxLag must not be negative, was " + maxLag);
    }
    if (pageSize < 1) {
      throw new IllegalArgumentException("pageSize must be positive, was " + pageSize);
    }
  }

  static CallOptions defaults() {
    return new CallOptions(
        Consistency.MONOTONIC, Duration.ofSeconds(10), List.of(), null, null, 100);
  }

  CallOptions withConsistency(Consistency consistency) {
    return new CallOptions(
        consistency, this.deadline, this.after, this.allowStale, this.maxLag, this.pageSize);
  }

  CallOptions withDeadline(Duration deadline) {
    return new CallOptions(
        this.consistency, deadline, this.after, this.allowStale, this.maxLag, this.pageSize);
  }

  CallOptions withAfter(InputRecord record) {
    List<InputRecord> records = new ArrayList<>(this.after);
    records.add(Objects.requireNonNull(record, "record must not be null"));
    return new CallOptions(
        this.consistency, this.deadline, records, this.allowStale, this.maxLag, this.pageSize);
  }

  CallOptions withAllowStale(boolean allowStale) {
    return new CallOptions(
        this.consistency, this.deadline, this.after, allowStale, this.maxLag, this.pageSize);
  }

  CallOptions withMaxLag(long maxLag) {
    return new CallOptions(
        this.consistency, this.deadline, this.after, this.allowStale, maxLag, this.pageSize);
  }

  CallOptions withPageSize(int pageSize) {
    return new CallOptions(
        this.consistency, this.deadline, this.after, this.allowStale, this.maxLag, pageSize);
  }

  /** Adds the parameters of these options to {@code request}. */
  ViewRequest applyTo(ViewRequest request) {
    for (InputRecord record : this.after) {
      request.param("after", record.parameter());
    }
    return request.param("allowStale", this.allowStale).param("maxLag", this.maxLag);
  }
}
