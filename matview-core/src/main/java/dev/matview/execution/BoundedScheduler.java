package dev.matview.execution;

import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * A scheduled pool whose queue is bounded: a task scheduled while {@code maxQueued} wait in it is
 * refused at once with a {@link RejectedExecutionException}, which the caller answers in its own
 * way, rather than the queue growing without a bound or the caller waiting. A periodic task, once
 * taken, is never refused. Callers scheduling at the same moment may each pass the check, so the
 * queue holds at most {@code maxQueued} plus their number. Its maximum pool size is its core size,
 * as a scheduled pool never makes more threads, so that its meters tell its real bound.
 */
final class BoundedScheduler extends ScheduledThreadPoolExecutor {

  private final int maxQueued;

  BoundedScheduler(int threads, NamedThreads names, int maxQueued) {
    super(threads, names, new AbortPolicy());
    this.maxQueued = maxQueued;
    setMaximumPoolSize(threads);
    setRemoveOnCancelPolicy(true);
  }

  @Override
  protected <V> RunnableScheduledFuture<V> decorateTask(
      Runnable runnable, RunnableScheduledFuture<V> task) {
    refuseWhenFull();
    return task;
  }

  @Override
  protected <V> RunnableScheduledFuture<V> decorateTask(
      Callable<V> callable, RunnableScheduledFuture<V> task) {
    refuseWhenFull();
    return task;
  }

  private void refuseWhenFull() {
    if (getQueue().size() >= this.maxQueued) {
      throw new RejectedExecutionException(
          "The queue holds " + this.maxQueued + " tasks, as many as it may");
    }
  }
}
