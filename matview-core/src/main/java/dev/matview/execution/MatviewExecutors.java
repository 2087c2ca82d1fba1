package dev.matview.execution;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Every thread Matview starts, in four executors, each named (its threads {@code
 * matview-<name>-N}), bounded (at most so many threads, and a bounded queue: a task beyond it is
 * refused at once with a {@link RejectedExecutionException} that the caller answers in its own way,
 * so that no caller, a request thread least of all, waits to hand work on) and with one job:
 *
 * <ul>
 *   <li>{@code timer}, one thread for every delay: a key lookup's gathering window, the pause
 *       before a lookup is routed again after a momentary refusal, the deadline and the polls of a
 *       read that waits for a position, the change streams' heartbeats, the re-keyed records' polls
 *       and the health's periodic checks. A task on it only hands work on, to the workers or the
 *       polls, so that no delay holds up another.
 *   <li>{@code worker}, short work handed off that never blocks: a lookup routed again, a read that
 *       waits for a position asked again, key lookups sent together once their window is over, a
 *       change stream's events written to its client, a heartbeat handed to every stream.
 *   <li>{@code polls}, the periodic work that may wait for the broker or for Kafka Streams: the
 *       store partitions' lag reports, the application's availability and the re-keyed records'
 *       progress, a thread for each, so that none waits behind another.
 *   <li>{@code change-fanout}, which hands each store partition's updates to the change streams
 *       that follow it, a feed at a time and in order ({@code replica.ChangeFeed}); it schedules
 *       its own next look at a feed that had updates, a part of that work and not a delay before
 *       it.
 * </ul>
 *
 * The peers' HTTP client makes its own I/O threads; they come from {@link #peerIoThreads()}, named
 * {@code matview-peer-io-N} and counted. {@link #close()} stops the executors in that order.
 */
public final class MatviewExecutors implements AutoCloseable {

  /** What every thread name of Matview starts with. */
  static final String PREFIX = "matview-";

  /**
   * The most tasks that wait in the timer's, the workers' or the fan-out's queue: one for each
   * request or change stream at a time, far more than a server holds connections, so that only a
   * flood meets it.
   */
  static final int MAX_QUEUED = 65_536;

  /** The fan-out's threads. */
  static final int FAN_OUT_THREADS = 2;

  /** The polls' threads: one for each periodic job that may wait for the broker. */
  static final int POLL_THREADS = 3;

  /** The most polls that wait: each job waits once at a time. */
  static final int MAX_QUEUED_POLLS = 16;

  /** How long {@link #close()} waits for each executor's threads to end. */
  private static final long CLOSE_WAIT_SECONDS = 2;

  private final BoundedScheduler timer;

  private final ThreadPoolExecutor workers;

  private final ThreadPoolExecutor polls;

  private final BoundedScheduler changeFanOut;

  private final NamedThreads peerIo = new NamedThreads("peer-io");

  /** Executors with as many workers as processors, at least two, and the bounds above. */
  public MatviewExecutors() {
    this(Math.max(2, Runtime.getRuntime().availableProcessors()), MAX_QUEUED);
  }

  /** Executors with {@code workerThreads} workers, each queue holding at most {@code maxQueued}. */
  MatviewExecutors(int workerThreads, int maxQueued) {
    this.timer = new BoundedScheduler(1, new NamedThreads("timer"), maxQueued);
    this.workers = fixed(workerThreads, maxQueued, new NamedThreads("worker"));
    this.workers.prestartAllCoreThreads();
    this.polls =
        fixed(POLL_THREADS, Math.min(maxQueued, MAX_QUEUED_POLLS), new NamedThreads("polls"));
    this.polls.allowCoreThreadTimeOut(true);
    this.changeFanOut =
        new BoundedScheduler(FAN_OUT_THREADS, new NamedThreads("change-fanout"), maxQueued);
    this.changeFanOut.setKeepAliveTime(1, TimeUnit.MINUTES);
    this.changeFanOut.allowCoreThreadTimeOut(true);
  }

  private static ThreadPoolExecutor fixed(int threads, int maxQueued, NamedThreads names) {
    return new ThreadPoolExecutor(
        threads,
        threads,
        1,
        TimeUnit.MINUTES,
        new LinkedBlockingQueue<>(maxQueued),
        names,
        new ThreadPoolExecutor.AbortPolicy());
  }

  /** The one thread for every delay; a task on it hands work on and returns. */
  public ScheduledExecutorService timer() {
    return this.timer;
  }

  /** The threads for short work handed off, which never blocks. */
  public ExecutorService workers() {
    return this.workers;
  }

  /** The threads for periodic work that may wait for the broker or Kafka Streams. */
  public ExecutorService polls() {
    return this.polls;
  }

  /** The threads that hand the store partitions' updates to change streams, a feed at a time. */
  public ScheduledExecutorService changeFanOut() {
    return this.changeFanOut;
  }

  /** The factory of the peers' HTTP client's I/O threads, which that client owns. */
  public ThreadFactory peerIoThreads() {
    return this.peerIo;
  }

  /** How many of the peers' HTTP client's I/O threads run now. */
  public int peerIoThreadsAlive() {
    return this.peerIo.alive();
  }

  /**
   * Each executor by its name ({@code matview-timer}, {@code matview-worker}, {@code
   * matview-polls}, {@code matview-change-fanout}), in the order {@link #close()} stops them.
   */
  public Map<String, ThreadPoolExecutor> byName() {
    Map<String, ThreadPoolExecutor> executors = new LinkedHashMap<>();
    executors.put(PREFIX + "timer", this.timer);
    executors.put(PREFIX + "worker", this.workers);
    executors.put(PREFIX + "polls", this.polls);
    executors.put(PREFIX + "change-fanout", this.changeFanOut);
    return executors;
  }

  /**
   * Stops every executor, and waits a moment for its threads to end before the next: the timer
   * first, so that no delay hands anything on any more, nor starts a heartbeat, a poll or a lookup
   * again; then the workers and the polls, which only the timer and the requests fed, and no
   * request comes any more; the fan-out last, which only the stream thread fed, and Kafka Streams
   * stopped it before, closing every feed. Tasks still waiting are dropped: nobody is there to
   * answer.
   */
  @Override
  public void close() {
    for (ThreadPoolExecutor executor : byName().values()) {
      executor.shutdownNow();
      try {
        executor.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
