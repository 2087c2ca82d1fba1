package dev.matview.changes;

import dev.matview.replica.ChangeListener;
import dev.matview.replica.StoreChange;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * One change stream of a store partition: the stream thread offers it each update of its key (or of
 * every key), which waits in a queue of at most {@code buffer} updates until a dispatcher thread
 * writes it to the sink. A client that lets the queue fill is dropped with a final event, so a slow
 * reader never grows the heap; a partition that closes ends the stream with an event that says to
 * reconnect with the last id.
 */
final class ChangeStream implements ChangeListener {

  private final byte @Nullable [] key;

  private final ArrayBlockingQueue<StoreChange> queue;

  private final BiFunction<StoreChange, @Nullable String, ChangeEvent> events;

  private final IdWriter ids;

  private final ChangeSink sink;

  private final Executor dispatcher;

  private final Runnable onEnd;

  private final AtomicBoolean scheduled = new AtomicBoolean();

  private final AtomicBoolean ended = new AtomicBoolean();

  private volatile boolean started;

  private volatile boolean dropped;

  private volatile boolean closed;

  private volatile boolean heartbeat;

  private long lastOffset = -1;

  private int lastSequence = Integer.MAX_VALUE;

  private @Nullable String lastId;

  /**
   * A stream of the updates of {@code key}, or of every key when {@code null}, into {@code sink}.
   */
  ChangeStream(
      byte @Nullable [] key,
      int buffer,
      BiFunction<StoreChange, @Nullable String, ChangeEvent> events,
      IdWriter ids,
      ChangeSink sink,
      Executor dispatcher,
      Runnable onEnd) {
    this.key = key;
    this.queue = new ArrayBlockingQueue<>(Math.max(1, buffer));
    this.events = events;
    this.ids = ids;
    this.sink = sink;
    this.dispatcher = dispatcher;
    this.onEnd = onEnd;
  }

  @Override
  public void changed(StoreChange change) {
    if (this.ended.get() || !concerns(change)) {
      return;
    }
    if (!this.queue.offer(change)) {
      this.dropped = true;
    }
    schedule();
  }

  @Override
  public void closed() {
    this.closed = true;
    schedule();
  }

  /**
   * Starts delivering: first {@code first} (the current value), then those of {@code missed} (the
   * partition's updates the stream missed) that are of its key, then every update queued or to come
   * after the one at {@code offset} and {@code sequence}.
   */
  void start(
      List<ChangeEvent> first,
      List<StoreChange> missed,
      long offset,
      int sequence,
      @Nullable String id) {
    this.lastOffset = offset;
    this.lastSequence = sequence;
    this.lastId = id;
    try {
      for (ChangeEvent event : first) {
        this.sink.send(event);
      }
      for (StoreChange change : missed) {
        if (concerns(change)) {
          deliver(change);
        }
      }
    } catch (IOException ex) {
      end();
      return;
    }
    this.started = true;
    schedule();
  }

  /** Writes a heartbeat soon, so that a client that went away is noticed. */
  void heartbeat() {
    this.heartbeat = true;
    schedule();
  }

  /** Whether the stream has ended. */
  boolean hasEnded() {
    return this.ended.get();
  }

  /** Ends the stream: the client went away. */
  void end() {
    if (this.ended.compareAndSet(false, true)) {
      this.queue.clear();
      this.onEnd.run();
      this.sink.close();
    }
  }

  /** Whether {@code change} is of this stream's key, or the stream is of every key. */
  private boolean concerns(StoreChange change) {
    return this.key == null || Arrays.equals(this.key, change.key());
  }

  private void schedule() {
    if (this.started && this.scheduled.compareAndSet(false, true)) {
      this.dispatcher.execute(this::drain);
    }
  }

  private void drain() {
    try {
      StoreChange change;
      while (!this.ended.get() && (change = this.queue.poll()) != null) {
        deliver(change);
      }
      if (this.heartbeat) {
        this.heartbeat = false;
        this.sink.heartbeat();
      }
      if (this.dropped) {
        finish(ChangeEvent.Kind.DROPPED, "the client read too slowly");
      } else if (this.closed) {
        finish(ChangeEvent.Kind.RECONNECT, "the partition moved or this instance stops");
      }
    } catch (IOException | RuntimeException ex) {
      end();
    } finally {
      this.scheduled.set(false);
    }
    if (!this.ended.get() && (!this.queue.isEmpty() || this.dropped || this.closed)) {
      schedule();
    }
  }

  private void deliver(StoreChange change) throws IOException {
    if (!change.isAfter(this.lastOffset, this.lastSequence)) {
      return;
    }
    String id = this.ids.id(change);
    this.sink.send(this.events.apply(change, id));
    this.lastOffset = change.offset();
    this.lastSequence = change.sequence();
    this.lastId = id;
  }

  private void finish(ChangeEvent.Kind kind, String why) throws IOException {
    this.sink.send(ChangeEvent.ending(kind, why, this.lastId));
    end();
  }

  /** Writes the id of an update. */
  @FunctionalInterface
  interface IdWriter {

    /** The id of {@code change}, or {@code null}. */
    @Nullable String id(StoreChange change);
  }
}
