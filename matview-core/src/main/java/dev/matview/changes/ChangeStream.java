package dev.matview.changes;

import dev.matview.replica.ChangeListener;
import dev.matview.replica.StoreChange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One change stream of a store partition: the feed's fan-out offers it each update of its key (or
 * of every key), which waits in a queue of at most {@code buffer} updates (taking memory only for
 * those it holds) until a dispatcher thread writes a batch of them to the sink with one flush. A
 * client that lets the queue fill is dropped with a final event after the last update before the
 * first one it missed, so a slow reader never grows the heap and can resume with that event's id
 * without a gap; a partition that closes ends the stream with an event that says to reconnect with
 * the last id.
 */
final class ChangeStream implements ChangeListener {

  /** The most updates written with one flush. */
  private static final int BATCH = 256;

  private final byte @Nullable [] key;

  private final WaitingUpdates queue;

  private final StreamMark mark;

  private final ChangeSink sink;

  private final Executor dispatcher;

  private final Runnable onEnd;

  private final AtomicBoolean scheduled = new AtomicBoolean();

  private final AtomicBoolean ended = new AtomicBoolean();

  private volatile boolean started;

  private volatile boolean dropped;

  private volatile @Nullable String reconnect;

  private volatile boolean heartbeat;

  /**
   * A stream of the updates of {@code key}, or of every key when {@code null}, into {@code sink},
   * that counts the updates it holds for its client in {@code waiting}.
   */
  ChangeStream(
      byte @Nullable [] key,
      int buffer,
      AtomicInteger waiting,
      Function<StoreChange, ChangeEvent> events,
      ChangeSink sink,
      Executor dispatcher,
      Runnable onEnd) {
    this.key = key;
    this.queue = new WaitingUpdates(buffer, waiting);
    this.mark = new StreamMark(events);
    this.sink = sink;
    this.dispatcher = dispatcher;
    this.onEnd = onEnd;
  }

  @Override
  public void changed(StoreChange change) {
    if (this.dropped || this.ended.get() || !concerns(change)) {
      return;
    }
    if (this.queue.offer(change)) {
      if (this.ended.get()) {
        this.queue.discard();
      }
    } else {
      this.dropped = true;
    }
    schedule();
  }

  @Override
  public void closed() {
    ending("the partition moved or this instance stops");
  }

  @Override
  public void fellBehind() {
    ending("this instance fell too far behind in passing the partition's updates on");
  }

  @Override
  public byte @Nullable [] key() {
    return this.key;
  }

  private void ending(String why) {
    if (this.reconnect == null) {
      this.reconnect = why;
    }
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
    this.mark.set(offset, sequence, id);
    try {
      for (ChangeEvent event : first) {
        this.sink.send(event);
      }
      this.mark.write(missed.stream().filter(this::concerns).toList(), this.sink);
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
      this.queue.discard();
      this.onEnd.run();
      this.sink.close();
    }
  }

  /** Whether {@code change} is of this stream's key, or the stream is of every key. */
  private boolean concerns(StoreChange change) {
    return this.key == null || Arrays.equals(this.key, change.key());
  }

  /**
   * Has a dispatcher thread write what waits, unless one is at it; when the dispatcher takes no
   * more, the next update or heartbeat asks again.
   */
  private void schedule() {
    if (this.started && this.scheduled.compareAndSet(false, true)) {
      try {
        this.dispatcher.execute(this::drain);
      } catch (RejectedExecutionException ex) {
        this.scheduled.set(false);
      }
    }
  }

  private void drain() {
    try {
      if (this.sink.isReady()) {
        writeWaiting();
      }
      String why = this.reconnect;
      if (this.dropped) {
        finish(ChangeEvent.Kind.DROPPED, "the client read too slowly");
      } else if (why != null) {
        finish(ChangeEvent.Kind.RECONNECT, why);
      } else if (this.heartbeat && this.sink.isReady()) {
        this.heartbeat = false;
        this.sink.heartbeat();
      } else if (!this.queue.isEmpty()) {
        this.sink.whenReady(this::schedule);
      }
    } catch (IOException | RuntimeException ex) {
      end();
    } finally {
      this.scheduled.set(false);
    }
    if (!this.ended.get()
        && ((this.sink.isReady() && !this.queue.isEmpty())
            || this.dropped
            || this.reconnect != null)) {
      schedule();
    }
  }

  /** Writes what waits, a batch with one flush at a time, while the client takes it. */
  private void writeWaiting() throws IOException {
    List<StoreChange> batch = new ArrayList<>();
    StoreChange change;
    while (!this.ended.get() && (change = this.queue.poll()) != null) {
      batch.add(change);
      if (batch.size() == BATCH) {
        this.mark.write(batch, this.sink);
        batch.clear();
        if (!this.sink.isReady()) {
          return;
        }
      }
    }
    this.mark.write(batch, this.sink);
  }

  private void finish(ChangeEvent.Kind kind, String why) throws IOException {
    this.sink.send(ChangeEvent.ending(kind, why, this.mark.id()));
    end();
  }
}
