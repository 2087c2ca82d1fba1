package dev.matview.sample;

import static dev.matview.sample.OrderViewsClient.ORDERS_PER_CUSTOMER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.processes.http.HttpProbe.Answer;
import dev.matview.query.ViewQueryService;
import dev.matview.replica.StorePositions;
import dev.matview.topology.ResolvedView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Reads its own writes on a fresh instance, first thing after start-up: the sample on a new broker
 * and empty state is sent orders through {@code POST /orders} the moment it answers, each read back
 * at once with {@code after=}, many of them before any store partition of the view is open. Each
 * read waits within {@code matview.consistency.max-wait} for the store to open and the order to be
 * in, and answers 200 with a position; none is refused.
 */
class ReadYourWritesAtStartUpTests {

  private static final int PAIRS = 80;

  private static final int WRITERS = 40;

  private static final Duration MAX_WAIT = Duration.ofSeconds(30);

  @TempDir Path tempDir;

  @Test
  void everyReadOfAWriteMadeAtStartUpWaitsForTheStoreAndSeesIt() throws Exception {
    try (ConfigurableApplicationContext sample = startSample()) {
      OrderViewsClient client =
          new OrderViewsClient(((WebServerApplicationContext) sample).getWebServer().getPort());
      StoreOpenings openings = new StoreOpenings(sample);
      AtomicInteger readBeforeAnyStoreOpened = new AtomicInteger();
      ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
      try {
        List<Future<?>> pairs = new ArrayList<>();
        for (int writer = 0; writer < WRITERS; writer++) {
          int first = writer;
          pairs.add(
              writers.submit(
                  () ->
                      IntStream.iterate(first, (n) -> n < PAIRS, (n) -> n + WRITERS)
                          .forEach(
                              (n) ->
                                  writeAndReadBack(
                                      client, n, openings, readBeforeAnyStoreOpened))));
        }
        for (Future<?> pair : pairs) {
          pair.get(2, TimeUnit.MINUTES);
        }
      } finally {
        writers.shutdownNow();
      }
      assertThat(readBeforeAnyStoreOpened)
          .as("reads sent before any store partition of the view was open")
          .hasPositiveValue();
    }
  }

  private static void writeAndReadBack(
      OrderViewsClient client, int n, StoreOpenings openings, AtomicInteger readBeforeOpen) {
    String customer = "fresh-customer-" + n;
    Answer placed = client.postOrder("{\"customerId\":\"" + customer + "\",\"amount\":1.25}");
    assertThat(placed.status()).as("POST /orders: %s", placed.body()).isEqualTo(202);
    String after = placed.json().required("after").asString();
    if (openings.noneOpen()) {
      readBeforeOpen.incrementAndGet();
    }
    long asked = System.nanoTime();
    Answer answer = client.keyAfter(ORDERS_PER_CUSTOMER, customer, after);
    Duration took = Duration.ofNanos(System.nanoTime() - asked);
    assertThat(answer.status())
        .as("pair %d, answered after %s: %s", n, took, answer.body())
        .isEqualTo(200);
    assertThat(answer.json().required("value").asLong()).isEqualTo(1);
    assertThat(answer.header("Matview-Position")).as("pair %d", n).isNotBlank();
  }

  private ConfigurableApplicationContext startSample() {
    return new SpringApplicationBuilder(MatviewSampleApplication.class)
        .run(
            "--server.port=0",
            "--sample.generator.enabled=false",
            "--sample.embedded-kafka.port=" + freePort(),
            "--matview.dev-broker.data-dir=" + this.tempDir.resolve("kafka"),
            "--spring.kafka.streams.state-dir=" + this.tempDir.resolve("streams"),
            "--matview.advertised-host=localhost",
            "--matview.consistency.max-wait=" + MAX_WAIT.toSeconds() + "s");
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /** Whether any store partition of {@code orders-per-customer} is open on the sample yet. */
  private static final class StoreOpenings {

    private final StorePositions positions;

    private final String storeName;

    StoreOpenings(ConfigurableApplicationContext sample) {
      this.positions = sample.getBean(dev.matview.replica.StoreHandles.class).positions();
      ResolvedView<?, ?, ?> view = sample.getBean(ViewQueryService.class).view(ORDERS_PER_CUSTOMER);
      this.storeName = view.storeName();
    }

    boolean noneOpen() {
      return IntStream.range(0, 3).allMatch((p) -> this.positions.of(this.storeName, p) == null);
    }
  }
}
