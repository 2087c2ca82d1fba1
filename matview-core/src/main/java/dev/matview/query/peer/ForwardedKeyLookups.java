package dev.matview.query.peer;

import dev.matview.peer.ForwardedKeys;
import dev.matview.peer.PeerPath;
import dev.matview.peer.PeerResponse;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.peer.ForwardedKeyQueue.Lookup;
import dev.matview.query.routing.CallerContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * Forwards key lookups to the instances that own them, sending those that wait for the same
 * instance at the same time in one request ({@link ForwardedKeys}). A lookup that finds no request
 * on its way to its instance goes at once, alone as before; one that finds one waits for it to come
 * back and goes with every lookup waiting by then. So an idle instance forwards as before, and a
 * busy one pays one HTTP exchange for many lookups instead of one each: in row 3 of the benchmarks
 * this took forwarded lookups from 2.1 to 1.4 times the CPU of a local one.
 */
final class ForwardedKeyLookups {

  /**
   * Requests on their way to one instance for one view and caller at once: with one, lookups that
   * arrive meanwhile gather for the next. In row 3 of the benchmarks two gave 0.51 of local lookups
   * and 2.08 times their CPU, one 0.69 and 1.36 times.
   */
  static final int MAX_REQUESTS_IN_FLIGHT = 1;

  /** The most keys one request carries. */
  static final int MAX_KEYS = 64;

  private static final Object ALONE = new Object();

  private final PeerClient peers;

  private final ObjectMapper mapper;

  private final Map<Destination, ForwardedKeyQueue> queues = new ConcurrentHashMap<>();

  ForwardedKeyLookups(PeerClient peers, ObjectMapper mapper) {
    this.peers = peers;
    this.mapper = mapper;
  }

  /**
   * The answer of {@code owner} to a lookup of {@code rawKey} in {@code view}, with the query
   * {@code staleQuery} ({@code ""} or the stale-read parameters), as {@link PeerClient#fetch} tells
   * it.
   */
  Routed<PeerResponse> fetch(
      String view,
      PartitionOwner owner,
      String rawKey,
      PeerPath staleQuery,
      CallerContext caller,
      Duration timeout) {
    Lookup lookup = new Lookup(owner, rawKey);
    Destination destination =
        new Destination(owner.host(), view, staleQuery.toString(), caller.authorization());
    ForwardedKeyQueue queue;
    @Nullable Boolean leads;
    do {
      queue = this.queues.computeIfAbsent(destination, ignored -> new ForwardedKeyQueue());
      leads = queue.enter(lookup);
    } while (leads == null);
    if (!leads) {
      Object turn = awaitTurn(queue, lookup, timeout);
      if (turn instanceof Routed<?> answered) {
        @SuppressWarnings("unchecked")
        Routed<PeerResponse> answer = (Routed<PeerResponse>) answered;
        return answer;
      }
      if (turn == ALONE) {
        return alone(destination, lookup, caller, timeout);
      }
    }
    try {
      return send(destination, queue.batch(lookup), caller, timeout);
    } finally {
      if (queue.leave()) {
        this.queues.remove(destination, queue);
      }
    }
  }

  /** How many destinations have lookups on their way or waiting. */
  int destinations() {
    return this.queues.size();
  }

  /** How many lookups wait for a request to carry them, over every destination. */
  int waiting() {
    return this.queues.values().stream().mapToInt(ForwardedKeyQueue::waiting).sum();
  }

  /**
   * Waits until {@code lookup} is answered or leads; one that waited longer than two requests may
   * take goes alone, unless a request already carries it or it already leads.
   */
  private static Object awaitTurn(ForwardedKeyQueue queue, Lookup lookup, Duration timeout) {
    try {
      return lookup.turn().get(2 * timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
    } catch (TimeoutException ex) {
      return queue.withdraw(lookup) ? ALONE : lookup.turn().join();
    } catch (ExecutionException ex) {
      throw new IllegalStateException("A forwarded lookup's turn failed", ex);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      return queue.withdraw(lookup) ? ALONE : lookup.turn().join();
    }
  }

  /**
   * Sends {@code batch}, completes every lookup in it but the first and returns the first's; a
   * lookup whose answer did not come in a form this instance reads goes alone.
   */
  private Routed<PeerResponse> send(
      Destination destination, List<Lookup> batch, CallerContext caller, Duration timeout) {
    Lookup own = batch.get(0);
    if (batch.size() == 1) {
      return alone(destination, own, caller, timeout);
    }
    List<Object> turns;
    try {
      turns = together(destination, batch, caller, timeout);
    } finally {
      for (int i = 1; i < batch.size(); i++) {
        batch.get(i).turn().complete(ALONE);
      }
    }
    Object first = turns.get(0);
    if (first == ALONE) {
      return alone(destination, own, caller, timeout);
    }
    @SuppressWarnings("unchecked")
    Routed<PeerResponse> mine = (Routed<PeerResponse>) first;
    return mine;
  }

  /** Sends {@code batch} in one request, and completes every lookup in it but the first. */
  private List<Object> together(
      Destination destination, List<Lookup> batch, CallerContext caller, Duration timeout) {
    List<String> keys = batch.stream().map(Lookup::rawKey).toList();
    Exception[] failure = new Exception[1];
    Routed<PeerResponse> answer =
        this.peers.postForwarded(
            destination.view(),
            destination.host(),
            keysPath(destination.view(), destination.staleQuery()),
            ForwardedKeys.request(this.mapper, keys),
            caller,
            timeout,
            ex -> notSent(destination.view(), ex, failure));
    List<Object> turns = new ArrayList<>(batch.size());
    List<Routed<PeerResponse>> answers =
        (failure[0] == null) ? relayedAnswers(this.mapper, answer, batch.size()) : null;
    for (int i = 0; i < batch.size(); i++) {
      Lookup lookup = batch.get(i);
      turns.add(
          (failure[0] != null)
              ? new Routed.Refused<PeerResponse>(
                  PeerFailures.ofOwner(destination.view(), lookup.owner(), failure[0], timeout))
              : (answers != null) ? answers.get(i) : ALONE);
    }
    for (int i = 1; i < batch.size(); i++) {
      batch.get(i).turn().complete(turns.get(i));
    }
    return turns;
  }

  /** The path of a request that carries keys of {@code view} together, with {@code query}. */
  private static String keysPath(String view, String query) {
    return PeerPath.of(view, ForwardedKeys.SEGMENT) + query;
  }

  /** The path of a lookup of {@code rawKey} alone in {@code view}, with {@code query}. */
  static String keyPath(String view, String rawKey, String query) {
    return PeerPath.of(view, "keys", rawKey) + query;
  }

  /**
   * The refusal that stands for a request that could not be sent, keeping {@code ex} in {@code
   * failure} so that each lookup it carried can be told why in its own partition's terms.
   */
  static Refusal notSent(String view, Exception ex, Exception[] failure) {
    failure[0] = ex;
    return new Refusal(
        Refusal.Reason.UNAVAILABLE, view, null, null, "not sent", Refusal.REBALANCE_RETRY);
  }

  /**
   * Each key's answer in {@code answer} to a request that carried {@code expected} keys, as its
   * lookup alone would have had it relayed, or {@code null} when the answer is not one this
   * instance reads: then each lookup goes alone.
   */
  static @Nullable List<Routed<PeerResponse>> relayedAnswers(
      ObjectMapper mapper, Routed<PeerResponse> answer, int expected) {
    if (!(answer instanceof Routed.Relayed<PeerResponse> relayed)
        || relayed.response().status() != 200) {
      return null;
    }
    List<ForwardedKeys.Answer> answers =
        ForwardedKeys.answers(mapper, relayed.response().body(), expected);
    return (answers != null) ? answers.stream().map(ForwardedKeyLookups::relayed).toList() : null;
  }

  private static Routed<PeerResponse> relayed(ForwardedKeys.Answer answer) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    answer.headers().forEach((name, value) -> headers.put(name, List.of(value)));
    return new Routed.Relayed<>(
        new PeerResponse(answer.status(), headers, answer.body().getBytes(StandardCharsets.UTF_8)));
  }

  private Routed<PeerResponse> alone(
      Destination destination, Lookup lookup, CallerContext caller, Duration timeout) {
    return this.peers.fetch(
        destination.view(),
        lookup.owner(),
        keyPath(destination.view(), lookup.rawKey(), destination.staleQuery()),
        caller,
        timeout);
  }

  /**
   * Where lookups go together: one instance, one view, the same stale-read parameters and the same
   * caller's credentials.
   */
  private record Destination(
      HostInfo host, String view, String staleQuery, @Nullable String authorization) {}
}
