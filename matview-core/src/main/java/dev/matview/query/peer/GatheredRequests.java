package dev.matview.query.peer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Items sent to destinations, gathered into requests: an item that finds no request on its way to
 * its destination goes at once, alone; those that arrive meanwhile go together in the next, at most
 * {@code max} in one, when that request comes back or once the gathering pause is over, whichever
 * is first. A destination's queue is let go once nothing is on its way to it or waits.
 *
 * @param <D> the destination
 * @param <T> an item
 */
final class GatheredRequests<D, T> {

  private final int max;

  private final Pause gathering;

  private final Sender<D, T> sender;

  private final Map<D, Queue<T>> queues = new ConcurrentHashMap<>();

  GatheredRequests(int max, Pause gathering, Sender<D, T> sender) {
    this.max = max;
    this.gathering = gathering;
    this.sender = sender;
  }

  /** Sends {@code item} to {@code destination}: at once, or with the next request there. */
  void send(D destination, T item) {
    while (true) {
      Queue<T> queue = this.queues.computeIfAbsent(destination, ignored -> new Queue<>());
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
          queue.waiting.add(item);
        }
      }
      if (goesNow) {
        send(destination, queue, List.of(item));
      } else if (startsGathering) {
        sendAfterGathering(destination, queue);
      }
      return;
    }
  }

  /** How many destinations have items on their way or waiting. */
  int destinations() {
    return this.queues.size();
  }

  /** How many items wait for a request to carry them, over every destination. */
  int waiting() {
    int waiting = 0;
    for (Queue<T> queue : this.queues.values()) {
      synchronized (queue) {
        waiting += queue.waiting.size();
      }
    }
    return waiting;
  }

  /** Sends {@code batch}, then, once it is answered, what waits for the same destination. */
  private void send(D destination, Queue<T> queue, List<T> batch) {
    this.sender
        .send(destination, batch)
        .whenComplete((ignored, failure) -> sendWaiting(destination, queue, true));
  }

  /** Sends what waits for {@code destination}; retires the queue when nothing is on its way. */
  private void sendWaiting(D destination, Queue<T> queue, boolean returned) {
    List<T> next = new ArrayList<>();
    boolean more;
    synchronized (queue) {
      if (returned) {
        queue.sending--;
      }
      while (!queue.waiting.isEmpty() && next.size() < this.max) {
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

  /** Sends what waits for {@code destination} after the gathering pause. */
  private void sendAfterGathering(D destination, Queue<T> queue) {
    Runnable send = () -> sendWaiting(destination, queue, false);
    this.gathering.then(send, send);
  }

  /** Sends one request. */
  @FunctionalInterface
  interface Sender<D, T> {

    /** Sends {@code batch} to {@code destination}: completes once it is answered. */
    CompletableFuture<Void> send(D destination, List<T> batch);
  }

  /** The items for one destination: whether a request is on its way, and what waits for it. */
  private static final class Queue<T> {

    private final ArrayDeque<T> waiting = new ArrayDeque<>();

    /** Requests on their way. */
    private int sending;

    /** Set once the queue left the map: an item that finds it so takes a new one. */
    private boolean retired;
  }
}
