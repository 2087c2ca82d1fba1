package dev.matview.query.peer;

import dev.matview.peer.ForwardedKeys;
import dev.matview.peer.PeerPath;
import dev.matview.peer.PeerResponse;
import dev.matview.position.InputRecord;
import dev.matview.position.ReadBound;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * Forwards key lookups to the instances that own them, sending those bound for the same instance at
 * the same time in one request ({@link ForwardedKeys}), each with its own bound (a position or
 * records it asks to see, or none), without a thread waiting: the owner may wait for its replica to
 * apply what they ask. As {@link GatheredRequests} gathers them, a lookup that finds no request on
 * its way to its destination goes at once, alone; those that arrive meanwhile go together in the
 * next, at most {@link #MAX_KEYS} in one, when that request comes back or after {@link #GATHERING},
 * whichever is first: a request that waits at the owner for a partition behind a bound holds back
 * no lookup of a partition past it for longer than that. So an idle instance forwards each lookup
 * alone, and a busy one pays one HTTP exchange for many lookups instead of one each. The gathering
 * time is kept on a timer that hands the request to the workers; when they take no more, the
 * request goes at once.
 */
final class GatheredKeyLookups {

  /** The most keys one request carries. */
  static final int MAX_KEYS = 64;

  /** The longest a lookup waits for the request before it to come back before going itself. */
  static final Duration GATHERING = Duration.ofMillis(20);

  private final PeerClient peers;

  private final ObjectMapper mapper;

  private final GatheredRequests<Destination, Lookup> requests;

  /** Lookups that wait for the request before them at most {@code gathering}. */
  GatheredKeyLookups(PeerClient peers, ObjectMapper mapper, Pause gathering) {
    this.peers = peers;
    this.mapper = mapper;
    this.requests = new GatheredRequests<>(MAX_KEYS, gathering, this::send);
  }

  /**
   * The answer of {@code owner} to a lookup of {@code rawKey}, as {@link PeerClient#fetch} tells.
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
    this.requests.send(destination, lookup);
    return lookup.answer();
  }

  /** How many destinations have lookups on their way or waiting. */
  int destinations() {
    return this.requests.destinations();
  }

  /** How many lookups wait for a request to carry them, over every destination. */
  int waiting() {
    return this.requests.waiting();
  }

  /** Sends {@code batch}: one lookup alone, several in one request. */
  private CompletableFuture<Void> send(Destination destination, List<Lookup> batch) {
    return (batch.size() == 1) ? alone(destination, batch.get(0)) : together(destination, batch);
  }

  private CompletableFuture<Void> alone(Destination destination, Lookup lookup) {
    return this.peers
        .<PeerResponse>fetch(
            destination.view(),
            lookup.owner(),
            PeerPath.ofKey(destination.view(), lookup.rawKey())
                .query(lookup.boundQuery())
                .toString(),
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
            (ex) -> {
              failure[0] = ex;
              return new Refusal(
                  Refusal.Reason.UNAVAILABLE,
                  destination.view(),
                  null,
                  null,
                  "not sent",
                  Refusal.REBALANCE_RETRY);
            })
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
              List<Routed<PeerResponse>> answers = relayedAnswers(answer, batch.size());
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

  /** Each key's answer in {@code answer} as if relayed alone, or {@code null} when unreadable. */
  private @Nullable List<Routed<PeerResponse>> relayedAnswers(
      Routed<PeerResponse> answer, int expected) {
    if (!(answer instanceof Routed.Relayed<PeerResponse> relayed)
        || relayed.response().status() != 200) {
      return null;
    }
    List<ForwardedKeys.Answer> answers =
        ForwardedKeys.answers(this.mapper, relayed.response().body(), expected);
    return (answers != null) ? answers.stream().map(GatheredKeyLookups::relayed).toList() : null;
  }

  private static Routed<PeerResponse> relayed(ForwardedKeys.Answer answer) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    answer.headers().forEach((name, value) -> headers.put(name, List.of(value)));
    return new Routed.Relayed<>(
        new PeerResponse(answer.status(), headers, answer.body().getBytes(StandardCharsets.UTF_8)));
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

  /** One lookup on its way or waiting, its bound as each kind of request carries it. */
  private record Lookup(
      PartitionOwner owner,
      String rawKey,
      String boundQuery,
      ForwardedKeys.Bound bound,
      CallerContext caller,
      Duration timeout,
      CompletableFuture<Routed<PeerResponse>> answer) {}

  /** Where lookups go together: one instance, view, stale-read query and credentials. */
  private record Destination(
      HostInfo host, String view, String staleQuery, @Nullable String authorization) {}
}
