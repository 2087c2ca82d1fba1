package dev.matview.query.peer;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Pools of daemon threads made as tasks come, at most a given number, idle ones ending after 30 s.
 */
final class DaemonThreads {

  private DaemonThreads() {}

  /**
   * A pool of at most {@code max} threads named {@code name-1}, {@code name-2}, …; a task that
   * finds them all busy is handed to {@code whenBusy}.
   */
  static ExecutorService upTo(int max, String name, RejectedExecutionHandler whenBusy) {
    AtomicInteger count = new AtomicInteger();
    return new ThreadPoolExecutor(
        0,
        max,
        30,
        TimeUnit.SECONDS,
        new SynchronousQueue<>(),
        (task) -> {
          Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        },
        whenBusy);
  }
}
