package dev.matview.faults;

import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.ServerSentEvent;
import dev.matview.processes.http.ServerSentEventReader;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Follows the change streams of a few customers' order counts, one thread per key: each opens the
 * key's stream on an instance and, when the stream ends ({@code reconnect}, {@code dropped}, the
 * connection lost) or cannot be opened (the instance killed, a 503), opens it again on the next
 * instance with the id of the last event it got as {@code Last-Event-ID}. Every event goes to a
 * {@link ChangeTally}.
 */
final class ChangeFollower implements AutoCloseable {

  /** The view followed: orders per customer, which grow by one per order. */
  static final String VIEW = ViewContents.ORDERS_PER_CUSTOMER;

  /** How long a follower waits before it tries again after a stream could not be opened. */
  private static final Duration RETRY_PAUSE = Duration.ofMillis(250);

  /**
   * How long a follower waits for a stream's next event: a followed customer may place no order for
   * a long while, so until the stream ends or {@link #close()} closes it.
   */
  private static final Duration QUIET_STREAM = Duration.ofHours(1);

  private final List<SampleInstance> instances;

  private final List<String> keys;

  private final ChangeTally tally;

  private final List<Thread> threads = new ArrayList<>();

  private final Set<ServerSentEventReader> streams = ConcurrentHashMap.newKeySet();

  private volatile boolean following = true;

  ChangeFollower(List<SampleInstance> instances, List<String> keys, ChangeTally tally) {
    this.instances = List.copyOf(instances);
    this.keys = List.copyOf(keys);
    this.tally = tally;
  }

  /** Starts following each key on a thread of its own, the first ones on different instances. */
  void start() {
    for (int i = 0; i < this.keys.size(); i++) {
      String key = this.keys.get(i);
      int first = i % this.instances.size();
      Thread thread = new Thread(() -> follow(key, first), "changes-" + key);
      thread.setDaemon(true);
      this.threads.add(thread);
      thread.start();
    }
  }

  /** Stops following and waits for every thread to end. */
  @Override
  public void close() throws InterruptedException {
    this.following = false;
    this.streams.forEach(ServerSentEventReader::close);
    for (Thread thread : this.threads) {
      thread.interrupt();
      thread.join(TimeUnit.SECONDS.toMillis(10));
    }
  }

  private void follow(String key, int first) {
    KeyStream stream = new KeyStream(key);
    int next = first;
    while (this.following) {
      SampleInstance instance = this.instances.get(next);
      next = (next + 1) % this.instances.size();
      try {
        stream.openOn(instance);
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException ex) {
        this.tally.ended("the follower failed: " + ex);
      }
    }
  }

  private void pause() throws InterruptedException {
    if (this.following) {
      TimeUnit.MILLISECONDS.sleep(RETRY_PAUSE.toMillis());
    }
  }

  /** One key's stream, opened again and again, and the id of the last event it got. */
  private final class KeyStream {

    private final String key;

    private @Nullable String lastId;

    KeyStream(String key) {
      this.key = key;
    }

    /** Opens the stream on {@code instance} and reads it until it ends. */
    void openOn(SampleInstance instance) throws InterruptedException {
      String changes = "/views/" + VIEW + "/keys/" + HttpProbe.encode(this.key) + "/changes";
      ServerSentEventReader events;
      try {
        events =
            (this.lastId != null)
                ? instance.http().events(changes, "Last-Event-ID", this.lastId)
                : instance.http().events(changes);
      } catch (UncheckedIOException ex) {
        if (!ChangeFollower.this.following) {
          return;
        }
        ChangeFollower.this.tally.opened(ChangeTally.NO_CONNECTION);
        pause();
        return;
      }
      ChangeFollower.this.tally.opened(Integer.toString(events.status()));
      ChangeFollower.this.streams.add(events);
      try (events) {
        if (!ChangeFollower.this.following) {
          return;
        }
        if (events.status() != 200) {
          pause();
          return;
        }
        if (this.lastId == null) {
          ChangeFollower.this.tally.freshStart(this.key);
        }
        if (!read(instance, events)) {
          pause();
        }
      } catch (UncheckedIOException ex) {
        if (ChangeFollower.this.following) {
          ChangeFollower.this.tally.ended("connection lost");
        }
      } finally {
        ChangeFollower.this.streams.remove(events);
      }
    }

    /** Reads events until the stream ends: whether it told any. */
    private boolean read(SampleInstance instance, ServerSentEventReader events)
        throws InterruptedException {
      ChangeTally tally = ChangeFollower.this.tally;
      boolean told = false;
      ServerSentEvent event;
      while (ChangeFollower.this.following && (event = events.nextOrEnd(QUIET_STREAM)) != null) {
        JsonNode data = ViewReader.JSON.readTree(event.data());
        String of = data.path("key").asString();
        switch (event.name()) {
          case "value", "deleted" -> {
            if (!of.equals(this.key)) {
              tally.otherKey(this.key, of, event.id(), instance.name());
            } else {
              tally.value(this.key, data.path("value").asLong(), event.id(), instance.name());
            }
          }
          case "skipped" -> tally.skipped(this.key);
          default -> {
            tally.ended("`" + event.name() + "` event: " + data.path("reason").asString());
            return told;
          }
        }
        told = true;
        if (event.id() != null) {
          this.lastId = event.id();
        }
      }
      if (ChangeFollower.this.following) {
        tally.ended("connection lost");
      }
      return told;
    }
  }
}
