package dev.matview.query.local;

import dev.matview.position.InputRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Follows a source record of a re-keyed view through its repartition topic when the store partition
 * asked has not seen it pass, which it sees only when the record, or a later one of its source
 * partition, was re-keyed to it: once the application has committed its source partition past the
 * record, the re-keying step has written it, so every repartition partition's last stable offset
 * read after that covers it; a store partition whose aggregation has committed past that offset, or
 * applied the record before it, holds it. Records are followed while lookups ask for them: every
 * {@value #POLL_MS} ms the timer hands a poll of the broker to the polls' threads, one poll at a
 * time, which may wait for the broker as no lookup does.
 */
final class RekeyedRecords implements AutoCloseable {

  private static final Log logger = LogFactory.getLog(RekeyedRecords.class);

  /** How often the broker is asked while lookups wait for records. */
  static final long POLL_MS = 100;

  /** How long a record nobody asked for again is followed. */
  private static final long FORGET_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final BrokerAdmin admin;

  private final String groupId;

  private final ConcurrentMap<Followed, Progress> followed = new ConcurrentHashMap<>();

  private final ScheduledExecutorService timer;

  private final Executor polls;

  private final AtomicBoolean asking = new AtomicBoolean();

  private volatile Map<TopicPartition, Long> committed = Map.of();

  private @Nullable ScheduledFuture<?> polling;

  /** Records of the application {@code groupId}, polled for while lookups wait for them. */
  RekeyedRecords(
      BrokerAdmin admin, String groupId, ScheduledExecutorService timer, Executor polls) {
    this.admin = admin;
    this.groupId = groupId;
    this.timer = timer;
    this.polls = polls;
  }

  /**
   * Whether {@code record}, read through {@code repartitionTopic}, is known to be in {@code
   * partition}'s store, which has applied that topic up to {@code applied}; when it counts, the
   * aggregation's commits count too ({@code active}: the replica read is the one that commits).
   * Follows the record from now on when it is not known yet.
   */
  boolean holds(
      InputRecord record, String repartitionTopic, int partition, long applied, boolean active) {
    Progress progress =
        this.followed.computeIfAbsent(
            new Followed(record, repartitionTopic), (ignored) -> new Progress());
    progress.asked = System.nanoTime();
    startPolling();
    Map<Integer, Long> stable = progress.stable;
    Long needed = (stable != null) ? stable.get(partition) : null;
    if (needed == null) {
      return false;
    }
    if (applied >= needed - 1) {
      return true;
    }
    Long aggregated = this.committed.get(new TopicPartition(repartitionTopic, partition));
    return active && aggregated != null && aggregated >= needed;
  }

  private synchronized void startPolling() {
    if (this.polling == null) {
      try {
        this.polling =
            this.timer.scheduleWithFixedDelay(this::pollSoon, 0, POLL_MS, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException ex) {
        logger.debug("Could not start following re-keyed records this time", ex);
      }
    }
  }

  /** Hands a poll on unless one is under way; one the polls cannot take is left for the next. */
  private void pollSoon() {
    if (this.asking.compareAndSet(false, true)) {
      try {
        this.polls.execute(this::pollOnce);
      } catch (RejectedExecutionException ex) {
        this.asking.set(false);
      }
    }
  }

  private void pollOnce() {
    try {
      poll();
    } finally {
      this.asking.set(false);
    }
  }

  private void poll() {
    long now = System.nanoTime();
    this.followed.values().removeIf((progress) -> now - progress.asked > FORGET_NANOS);
    if (this.followed.isEmpty()) {
      return;
    }
    try {
      Admin client = this.admin.get();
      Map<TopicPartition, Long> offsets = new HashMap<>();
      Map<TopicPartition, OffsetAndMetadata> read =
          client
              .listConsumerGroupOffsets(this.groupId)
              .partitionsToOffsetAndMetadata()
              .get(BrokerAdmin.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      read.forEach(
          (partition, offset) -> {
            if (offset != null) {
              offsets.put(partition, offset.offset());
            }
          });
      this.committed = offsets;
      List<Map.Entry<Followed, Progress>> rekeyed = new ArrayList<>();
      for (Map.Entry<Followed, Progress> entry : this.followed.entrySet()) {
        InputRecord record = entry.getKey().record();
        Long source = offsets.get(new TopicPartition(record.topic(), record.partition()));
        if (entry.getValue().stable == null && source != null && source > record.offset()) {
          rekeyed.add(entry);
        }
      }
      if (!rekeyed.isEmpty()) {
        Set<String> topics = new HashSet<>();
        rekeyed.forEach((entry) -> topics.add(entry.getKey().repartitionTopic()));
        Map<String, Map<Integer, Long>> stable = lastStable(client, topics);
        for (Map.Entry<Followed, Progress> entry : rekeyed) {
          Map<Integer, Long> ends = stable.get(entry.getKey().repartitionTopic());
          if (ends != null) {
            entry.getValue().stable = ends;
          }
        }
      }
    } catch (ExecutionException | TimeoutException | RuntimeException ex) {
      logger.debug("Could not follow re-keyed records this time", ex);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    }
  }

  private static Map<String, Map<Integer, Long>> lastStable(Admin client, Set<String> topics)
      throws ExecutionException, InterruptedException, TimeoutException {
    Map<TopicPartition, OffsetSpec> asked = new HashMap<>();
    for (var description :
        client
            .describeTopics(topics)
            .allTopicNames()
            .get(BrokerAdmin.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
            .values()) {
      description
          .partitions()
          .forEach(
              (info) ->
                  asked.put(
                      new TopicPartition(description.name(), info.partition()),
                      OffsetSpec.latest()));
    }
    ListOffsetsResult result =
        client.listOffsets(asked, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED));
    Map<String, Map<Integer, Long>> stable = new HashMap<>();
    result
        .all()
        .get(BrokerAdmin.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .forEach(
            (partition, info) ->
                stable
                    .computeIfAbsent(partition.topic(), (ignored) -> new HashMap<>())
                    .put(partition.partition(), info.offset()));
    return stable;
  }

  /** Stops the polls. */
  @Override
  public synchronized void close() {
    ScheduledFuture<?> started = this.polling;
    if (started != null) {
      started.cancel(false);
    }
  }

  /** A source record followed through a repartition topic. */
  private record Followed(InputRecord record, String repartitionTopic) {}

  /** How far a followed record has got. */
  private static final class Progress {

    volatile long asked;

    /** Each repartition partition's last stable offset once the record was re-keyed, or null. */
    volatile @Nullable Map<Integer, Long> stable;
  }
}
