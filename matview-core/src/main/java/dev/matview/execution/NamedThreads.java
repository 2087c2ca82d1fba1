package dev.matview.execution;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Daemon threads named {@code matview-<name>-1}, {@code matview-<name>-2}, …, counted while they
 * run: no thread of Matview keeps the JVM up, and each can be told from a thread dump by its name.
 */
final class NamedThreads implements ThreadFactory {

  private final String prefix;

  private final AtomicInteger made = new AtomicInteger();

  private final AtomicInteger alive = new AtomicInteger();

  NamedThreads(String name) {
    this.prefix = MatviewExecutors.PREFIX + name + "-";
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new Thread(() -> runCounted(task), this.prefix + this.made.incrementAndGet());
    thread.setDaemon(true);
    return thread;
  }

  /** How many of these threads run now. */
  int alive() {
    return this.alive.get();
  }

  private void runCounted(Runnable task) {
    this.alive.incrementAndGet();
    try {
      task.run();
    } finally {
      this.alive.decrementAndGet();
    }
  }
}
