package dev.matview.query.peer;

import dev.matview.peer.ForwardedKeys;
import dev.matview.peer.PeerPath;
import dev.matview.peer.PeerResponse;
import dev.matview.position.InputRecord;
import dev.matview.position.ReadBound;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * Forwards key lookups to the instances that own them, sending those bound for the same instance at
 * the same time in one request ({@link ForwardedKeys}), each with its own bound (a position or
 * records it asks to see, or none), without a thread waiting: the owner may wait for its replica to
 * apply what they ask. A lookup that finds no request on its way to its destination goes at once,
 * alone; those that arrive meanwhile go together in the next, at most {@link #MAX_KEYS} in one,
 * when that request comes back or after {@link #GATHERING}, whichever is first: a request that
 * waits at the owner for a partition behind a bound holds back no lookup of a partition past it for
 * longer than that. So an idle instance forwards each lookup alone, and a busy one pays one HTTP
 * exchange for many lookups instead of one each. The gathering time is kept on a timer that hands
 * the request to the workers; when they take no more, the request goes at once.
 */
final class GatheredKeyLookups {

  /** The most keys one request carries. */
  static final int MAX_KEYS = 64;

  /** The longest a lookup waits for the request before it to come back before going itself. */
  static final Duration GATHERING = Duration.ofMillis(20);

  private final PeerClient peers;

  private final ObjectMapper mapper;

  private final Map<Destination, Queue> queues = new ConcurrentHashMap<>();

  private final Pause gathering;

  /**
   * Lookups that wait for the request before them to come back at most as long as {@code
   * gathering}, normally {@link #GATHERING}; with {@link Pause#NONE}, one that finds a request on
   * its way goes at once.
   */
  GatheredKeyLookups(PeerClient peers, ObjectMapper mapper, Pause gathering) {
    this.peers = peers;
    this.mapper = mapper;
    this.gathering = gathering;
  }

  /**
   * The answer of {@code owner} to a lookup of {@code rawKey} in {@code view} under the caller's
   * bound, with the stale-read parameters of {@code staleQuery}, as {@link PeerClient#fetch} tells
   * it.
   */
  CompletableFuture<Routed<PeerResponse>> fetch(
      String view,
      PartitionOwner owner,
      String rawKey,
      PeerPath staleQuery,
      CallerContext caller,
      Duration timeout) {
    Destination destination =
        new Destination(owner.host(), view, staleQuery.toString(), caller.authorization());
    Lookup lookup =
        new Lookup(
            owner,
            rawKey,
            caller.bound().addTo(staleQuery).toString(),
            sent(caller.bound()),
            caller,
            timeout,
            new CompletableFuture<>());
    while (true) {
      Queue queue = this.queues.computeIfAbsent(destination, ignored -> new Queue());
      boolean goesNow;
      boolean startsGathering = false;
      synchronized (queue) {
        if (queue.retired) {
          continue;
        }
        goesNow = queue.sending == 0;
        if (goesNow) {
          queue.sending = 1;
        } else {
          startsGathering = queue.waiting.isEmpty();
          queue.waiting.add(lookup);
        }
      }
      if (goesNow) {
        send(destination, queue, List.of(lookup));
      } else if (startsGathering) {
        sendAfterGathering(destination, queue);
      }
      return lookup.answer();
    }
  }

  /** How many destinations have lookups on their way or waiting. */
  int destinations() {
    return this.queues.size();
  }

  /** How many lookups wait for a request to carry them, over every destination. */
  int waiting() {
    int waiting = 0;
    for (Queue queue : this.queues.values()) {
      synchronized (queue) {
        waiting += queue.waiting.size();
      }
    }
    return waiting;
  }

  /** Sends {@code batch}, then, once it is answered, what waits for the same destination. */
  private void send(Destination destination, Queue queue, List<Lookup> batch) {
    CompletableFuture<Void> sent =
        (batch.size() == 1) ? alone(destination, batch.get(0)) : together(destination, batch);
    sent.whenComplete((ignored, failure) -> sendWaiting(destination, queue, true));
  }

  /**
   * Sends what waits for {@code destination}, once a request to it came back ({@code returned}) or
   * the first of them waited {@link #GATHERING}; retires the queue when nothing is on its way.
   */
  private void sendWaiting(Destination destination, Queue queue, boolean returned) {
    List<Lookup> next = new ArrayList<>();
    boolean more;
    synchronized (queue) {
      if (returned) {
        queue.sending--;
      }
      while (!queue.waiting.isEmpty() && next.size() < MAX_KEYS) {
        next.add(queue.waiting.poll());
      }
      more = !queue.waiting.isEmpty();
      if (!next.isEmpty()) {
        queue.sending++;
      } else if (queue.sending == 0) {
        queue.retired = true;
        this.queues.remove(destination, queue);
      }
    }
    if (more) {
      sendAfterGathering(destination, queue);
    }
    if (!next.isEmpty()) {
      send(destination, queue, next);
    }
  }

  /**
   * Sends what waits for {@code destination} once the gathering time has passed; at once when the
   * threads take no more: sending hands the request to the peers' client and returns.
   */
  private void sendAfterGathering(Destination destination, Queue queue) {
    Runnable send = () -> sendWaiting(destination, queue, false);
    this.gathering.then(send, send);
  }

  private CompletableFuture<Void> alone(Destination destination, Lookup lookup) {
    return this.peers
        .<PeerResponse>fetch(
            destination.view(),
            lookup.owner(),
            GatheredAnswers.keyPath(destination.view(), lookup.rawKey(), lookup.boundQuery()),
            lookup.caller(),
            lookup.timeout())
        .handle(
            (answer, failure) -> {
              complete(lookup, answer, failure);
              return null;
            });
  }

  /** Sends {@code batch} in one request, sent as its first lookup's caller sends it. */
  private CompletableFuture<Void> together(Destination destination, List<Lookup> batch) {
    Lookup first = batch.get(0);
    Exception[] failure = new Exception[1];
    return this.peers
        .postForwarded(
            destination.view(),
            destination.host(),
            PeerPath.of(destination.view(), ForwardedKeys.SEGMENT) + destination.staleQuery(),
            ForwardedKeys.request(
                this.mapper,
                batch.stream().map(Lookup::rawKey).toList(),
                batch.stream().map(Lookup::bound).toList()),
            first.caller(),
            first.timeout(),
            ex -> GatheredAnswers.notSent(destination.view(), ex, failure))
        .thenCompose(
            (answer) -> {
              if (failure[0] != null) {
                for (Lookup lookup : batch) {
                  lookup
                      .answer()
                      .complete(
                          new Routed.Refused<>(
                              PeerFailures.ofOwner(
                                  destination.view(),
                                  lookup.owner(),
                                  failure[0],
                                  first.timeout())));
                }
                return CompletableFuture.<Void>completedFuture(null);
              }
              List<Routed<PeerResponse>> answers =
                  GatheredAnswers.relayedAnswers(this.mapper, answer, batch.size());
              if (answers == null) {
                return CompletableFuture.allOf(
                    batch.stream()
                        .map(lookup -> alone(destination, lookup))
                        .toArray(CompletableFuture[]::new));
              }
              for (int i = 0; i < batch.size(); i++) {
                batch.get(i).answer().complete(answers.get(i));
              }
              return CompletableFuture.<Void>completedFuture(null);
            })
        .whenComplete(
            (ignored, unexpected) -> {
              if (unexpected != null) {
                batch.forEach(lookup -> complete(lookup, null, unexpected));
              }
            });
  }

  /** {@code bound} as a request of keys sent together carries it beside its key. */
  private static ForwardedKeys.Bound sent(ReadBound bound) {
    return new ForwardedKeys.Bound(
        bound.token(), bound.records().stream().map(InputRecord::toString).toList());
  }

  private static void complete(
      Lookup lookup, @Nullable Routed<PeerResponse> answer, @Nullable Throwable failure) {
    if (answer != null) {
      lookup.answer().complete(answer);
    } else {
      lookup.answer().completeExceptionally(failure);
    }
  }

  /** The lookups for one destination: whether a request is on its way, and who waits for it. */
  private static final class Queue {

    private final ArrayDeque<Lookup> waiting = new ArrayDeque<>();

    /** Requests on their way. */
    private int sending;

    /** Set once the queue left the map: a lookup that finds it so takes a new one. */
    private boolean retired;
  }

  /**
   * One lookup on its way or waiting, with its bound as its own request's query carries it and as a
   * request of several keys does, and the future of its answer.
   */
  private record Lookup(
      PartitionOwner owner,
      String rawKey,
      String boundQuery,
      ForwardedKeys.Bound bound,
      CallerContext caller,
      Duration timeout,
      CompletableFuture<Routed<PeerResponse>> answer) {}

  /**
   * Where lookups go together: one instance, one view, the same stale-read parameters and the same
   * caller's credentials; each carries its own bound.
   */
  private record Destination(
      HostInfo host, String view, String staleQuery, @Nullable String authorization) {}
}
