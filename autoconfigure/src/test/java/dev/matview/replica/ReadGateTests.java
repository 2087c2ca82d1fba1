package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Tests for {@link ReadGate}. */
class ReadGateTests {

  private final ReadGate gate = new ReadGate();

  private final ExecutorService threads = Executors.newFixedThreadPool(3);

  @AfterEach
  void stopThreads() throws InterruptedException {
    this.threads.shutdownNow();
    assertThat(this.threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void letsReadsInUntilClosedAndNoneAfter() {
    int stripe = this.gate.enter();
    assertThat(stripe).isNotEqualTo(ReadGate.CLOSED);
    this.gate.leave(stripe);
    this.gate.close();
    assertThat(this.gate.enter()).isEqualTo(ReadGate.CLOSED);
  }

  @Test
  void closeWaitsForEveryReadLetInOnAnyThreadToLeave() throws Exception {
    int here = this.gate.enter();
    int there = this.threads.submit(this.gate::enter).get();
    CompletableFuture<Void> closed = CompletableFuture.runAsync(this.gate::close, this.threads);
    await()
        .during(Duration.ofMillis(200))
        .atMost(Duration.ofSeconds(5))
        .until(() -> !closed.isDone());
    this.gate.leave(here);
    await()
        .during(Duration.ofMillis(200))
        .atMost(Duration.ofSeconds(5))
        .until(() -> !closed.isDone());
    this.threads.submit(() -> this.gate.leave(there)).get();
    closed.get(10, TimeUnit.SECONDS);
    assertThat(this.gate.enter()).isEqualTo(ReadGate.CLOSED);
  }

  @Test
  void letsInReadsOfManyThreadsWhateverItsNumberOfStripesAndClosesOnceTheyLeft() throws Exception {
    for (int threadsAskedFor : new int[] {1, 3, 8, 1_000}) {
      ReadGate sized = new ReadGate(threadsAskedFor);
      for (int i = 0; i < 30; i++) {
        FutureTask<Integer> read =
            new FutureTask<>(
                () -> {
                  int stripe = sized.enter();
                  sized.leave(stripe);
                  return stripe;
                });
        new Thread(read).start();
        assertThat(read.get(10, TimeUnit.SECONDS)).isNotEqualTo(ReadGate.CLOSED);
      }
      this.threads.submit(sized::close).get(10, TimeUnit.SECONDS);
    }
  }
}
