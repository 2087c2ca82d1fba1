package dev.matview.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Matview's executors: every thread named after its executor, each executor bounded, a task beyond
 * a bound refused at once instead of the caller waiting, and the executors closed timer first, then
 * the workers and the polls, then the fan-out.
 */
class MatviewExecutorsTests {

  private static final long SECONDS = 30;

  private final CountDownLatch release = new CountDownLatch(1);

  private MatviewExecutors executors = new MatviewExecutors();

  @AfterEach
  void closeExecutors() {
    this.release.countDown();
    this.executors.close();
  }

  @Test
  void namesEveryThreadAfterItsExecutorAndKeepsNoneFromEndingTheJvm() throws Exception {
    assertThat(threadOf(this.executors.timer())).matches("matview-timer-\\d+");
    assertThat(threadOf(this.executors.workers())).matches("matview-worker-\\d+");
    assertThat(threadOf(this.executors.polls())).matches("matview-polls-\\d+");
    assertThat(threadOf(this.executors.changeFanOut())).matches("matview-change-fanout-\\d+");
    assertThat(this.executors.byName().keySet())
        .containsExactly(
            "matview-timer", "matview-worker", "matview-polls", "matview-change-fanout");

    CountDownLatch running = new CountDownLatch(1);
    Thread io = this.executors.peerIoThreads().newThread(() -> awaitRelease(running));
    assertThat(io.getName()).isEqualTo("matview-peer-io-1");
    assertThat(io.isDaemon()).isTrue();
    io.start();
    assertThat(running.await(SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(this.executors.peerIoThreadsAlive()).isEqualTo(1);
    this.release.countDown();
    io.join(TimeUnit.SECONDS.toMillis(SECONDS));
    assertThat(this.executors.peerIoThreadsAlive()).isZero();
  }

  @Test
  void boundsTheThreadsOfEachExecutor() {
    this.executors.close();
    this.executors = new MatviewExecutors(3, 100);
    Map<String, ThreadPoolExecutor> byName = this.executors.byName();
    assertThat(byName.get("matview-timer").getCorePoolSize()).isEqualTo(1);
    assertThat(byName.get("matview-worker").getMaximumPoolSize()).isEqualTo(3);
    assertThat(byName.get("matview-worker").getPoolSize())
        .as("the workers are there from the start")
        .isEqualTo(3);
    assertThat(byName.get("matview-worker").getQueue().remainingCapacity()).isEqualTo(100);
    assertThat(byName.get("matview-polls").getMaximumPoolSize()).isEqualTo(3);
    assertThat(byName.get("matview-polls").getQueue().remainingCapacity())
        .isEqualTo(MatviewExecutors.MAX_QUEUED_POLLS);
    assertThat(byName.get("matview-change-fanout").getCorePoolSize()).isEqualTo(2);
    try (MatviewExecutors sized = new MatviewExecutors()) {
      assertThat(sized.byName().get("matview-worker").getMaximumPoolSize())
          .isGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void refusesATaskBeyondAFullQueueAtOnceRatherThanHaveTheCallerWait() throws Exception {
    this.executors.close();
    this.executors = new MatviewExecutors(1, 2);
    occupy(this.executors.workers(), 1);
    occupy(this.executors.polls(), MatviewExecutors.POLL_THREADS);
    for (int i = 0; i < 2; i++) {
      this.executors.workers().execute(() -> {});
      this.executors.polls().execute(() -> {});
      this.executors.timer().schedule(() -> {}, 1, TimeUnit.HOURS);
      this.executors.changeFanOut().schedule(() -> {}, 1, TimeUnit.HOURS);
    }

    for (ExecutorService full :
        List.of(
            this.executors.workers(),
            this.executors.polls(),
            this.executors.timer(),
            this.executors.changeFanOut())) {
      long started = System.nanoTime();
      assertThatExceptionOfType(RejectedExecutionException.class)
          .isThrownBy(() -> full.execute(() -> {}));
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started))
          .as("the caller did not wait for room")
          .isLessThan(SECONDS);
    }
    assertThatExceptionOfType(RejectedExecutionException.class)
        .isThrownBy(() -> this.executors.timer().schedule(() -> {}, 1, TimeUnit.MILLISECONDS));
  }

  @Test
  void closesTheTimerFirstThenTheWorkersAndThePollsThenTheFanOut() throws Exception {
    Map<String, ThreadPoolExecutor> byName = this.executors.byName();
    ThreadPoolExecutor timer = byName.get("matview-timer");
    ThreadPoolExecutor workers = byName.get("matview-worker");
    ThreadPoolExecutor polls = byName.get("matview-polls");
    CompletableFuture<Boolean> timerStoppedFirst =
        whenStopped(timer, () -> !workers.isShutdown() && !polls.isShutdown());
    CompletableFuture<Boolean> workersAfterTimer = whenStopped(workers, timer::isTerminated);
    CompletableFuture<Boolean> pollsAfterWorkers = whenStopped(polls, workers::isTerminated);
    CompletableFuture<Boolean> fanOutLast =
        whenStopped(byName.get("matview-change-fanout"), polls::isTerminated);

    this.executors.close();

    assertThat(timerStoppedFirst.get(SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(workersAfterTimer.get(SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(pollsAfterWorkers.get(SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(fanOutLast.get(SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(byName.values()).allMatch(ThreadPoolExecutor::isTerminated);
    assertThatExceptionOfType(RejectedExecutionException.class)
        .isThrownBy(() -> this.executors.workers().execute(() -> {}));
  }

  private static String threadOf(ExecutorService executor) throws Exception {
    return executor
        .submit(() -> Thread.currentThread().isDaemon() ? Thread.currentThread().getName() : "")
        .get(SECONDS, TimeUnit.SECONDS);
  }

  /** Keeps {@code threads} threads of {@code executor} busy until the test ends. */
  private void occupy(ExecutorService executor, int threads) throws InterruptedException {
    CountDownLatch running = new CountDownLatch(threads);
    for (int i = 0; i < threads; i++) {
      executor.execute(() -> awaitRelease(running));
    }
    assertThat(running.await(SECONDS, TimeUnit.SECONDS)).isTrue();
  }

  private void awaitRelease(CountDownLatch running) {
    running.countDown();
    try {
      this.release.await();
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * A task busy on {@code executor} until it is stopped, which then tells what {@code seen} says of
   * the other executors.
   */
  private static CompletableFuture<Boolean> whenStopped(
      ThreadPoolExecutor executor, BooleanSupplier seen) throws InterruptedException {
    CompletableFuture<Boolean> told = new CompletableFuture<>();
    CountDownLatch running = new CountDownLatch(1);
    executor.execute(
        () -> {
          running.countDown();
          try {
            new CountDownLatch(1).await();
          } catch (InterruptedException ex) {
            told.complete(seen.getAsBoolean());
          }
        });
    assertThat(running.await(SECONDS, TimeUnit.SECONDS)).isTrue();
    return told;
  }
}
