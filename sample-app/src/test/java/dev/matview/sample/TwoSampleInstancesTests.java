package dev.matview.sample;

import static dev.matview.sample.OrderViewsClient.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KafkaStreams.State;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.util.FileSystemUtils;

/**
 * Two copies of the sample against one broker, as the guide runs them (docs/ha.md): every key of
 * every view gives the same answer from both, whichever holds it; then the dashboard shows them in
 * a browser.
 */
class TwoSampleInstancesTests {

  /**
   * The orders' time, half a minute into the last minute (never ahead of the clock): an older time
   * lets the broker's retention delete the head of the windowed view's changelog while the
   * restarted instance restores it, and Kafka Streams 4.4 then re-initializes the task at the same
   * deleted offset again and again, so the instance never leaves REBALANCING.
   */
  private static final Instant TS =
      Instant.now().minus(Duration.ofMinutes(1)).truncatedTo(ChronoUnit.MINUTES).plusSeconds(30);

  private static final Duration REBALANCE_TIMEOUT = Duration.ofMinutes(3);

  @TempDir static Path tempDir;

  private static ConfigurableApplicationContext first;

  private static ConfigurableApplicationContext second;

  private static String[] secondArguments;

  private static final Map<String, Long> expectedOrders = new HashMap<>();

  private static final Map<String, BigDecimal> expectedTotals = new HashMap<>();

  @BeforeAll
  static void startTwoInstancesAndPlaceOrders() {
    int kafkaPort = freePort();
    first =
        instance(
            "--sample.embedded-kafka.port=" + kafkaPort,
            "--matview.dev-broker.data-dir=" + tempDir.resolve("kafka"),
            "--spring.kafka.streams.state-dir=" + tempDir.resolve("streams-1"));
    secondArguments =
        new String[] {
          "--sample.embedded-kafka.enabled=false",
          "--spring.kafka.bootstrap-servers=127.0.0.1:" + kafkaPort,
          "--spring.kafka.streams.state-dir=" + tempDir.resolve("streams-2")
        };
    second = instance(secondArguments);
    OrderViewsClient client = new OrderViewsClient(port(first));
    for (int i = 0; i < 60; i++) {
      String customer = "customer-" + (i % 12);
      BigDecimal amount = BigDecimal.valueOf(100 + i, 2);
      client.placeOrder(customer, amount.toPlainString(), TS);
      expectedOrders.merge(customer, 1L, Long::sum);
      expectedTotals.merge(customer, amount, BigDecimal::add);
    }
  }

  @AfterAll
  static void stopInstances() {
    if (second != null) {
      second.close();
    }
    if (first != null) {
      first.close();
    }
  }

  @Test
  void bothInstancesAnswerEveryKeyOfEveryViewAlike() {
    List<OrderViewsClient> clients =
        List.of(new OrderViewsClient(port(first)), new OrderViewsClient(port(second)));
    eventually(
        () -> {
          for (OrderViewsClient client : clients) {
            for (String customer : expectedOrders.keySet()) {
              assertThat(client.orders(customer)).isEqualTo(expectedOrders.get(customer));
              assertThat(client.revenue(customer).total())
                  .isEqualByComparingTo(expectedTotals.get(customer));
              assertThat(client.ordersPerMinute(customer, TS.minusSeconds(60), TS))
                  .singleElement()
                  .satisfies(
                      window -> assertThat(window.count()).isEqualTo(expectedOrders.get(customer)));
            }
          }
        });
    Set<String> servedBy = new HashSet<>();
    for (String customer : expectedOrders.keySet()) {
      String fromFirst =
          clients
              .get(0)
              .key(OrderViewsClient.ORDERS_PER_CUSTOMER, customer)
              .headers()
              .getFirst("Matview-Served-By");
      String fromSecond =
          clients
              .get(1)
              .key(OrderViewsClient.ORDERS_PER_CUSTOMER, customer)
              .headers()
              .getFirst("Matview-Served-By");
      assertThat(fromSecond).isEqualTo(fromFirst);
      servedBy.add(fromFirst);
    }
    assertThat(servedBy)
        .containsExactlyInAnyOrder("localhost:" + port(first), "localhost:" + port(second));
  }

  /**
   * The dashboard in headless Chromium, after the second instance was restarted without its state:
   * it lists the views, shows who holds which partition, the restores to their end, and a lookup.
   */
  @Nested
  class Dashboard {

    @Test
    void showsTheViewsTheOwnersTheRestoresAndALookup(@TempDir Path browserDir) {
      try (DashboardBrowser browser = DashboardBrowser.start(browserDir)) {
        restartSecondWithoutItsState();
        String firstHost = "localhost:" + port(first);
        String secondHost = "localhost:" + port(second);
        browser.open(port(second));
        // a rebalance with a restore on each side: on a loaded 2-core machine it took over a minute
        Awaitility.await()
            .atMost(REBALANCE_TIMEOUT)
            .untilAsserted(
                () ->
                    assertThat(List.of(first, second))
                        .allSatisfy(
                            (app) -> assertThat(streamsState(app)).isEqualTo(State.RUNNING)));
        String readBeforeRunning = browser.text("status");
        eventually(
            () -> {
              assertThat(browser.text("status")).isNotEqualTo(readBeforeRunning);
              assertThat(browser.texts("#views tbody tr[data-view] strong"))
                  .containsExactly(
                      OrderViewsClient.ORDERS_PER_CUSTOMER,
                      OrderViewsClient.REVENUE_PER_CUSTOMER,
                      OrderViewsClient.ORDERS_PER_CUSTOMER_PER_MINUTE);
              Map<String, List<String>> active = browser.activePartitions();
              assertThat(active).containsOnlyKeys(firstHost, secondHost);
              assertThat(active.get(secondHost)).isNotEmpty();
              List<String> all = new ArrayList<>(active.get(firstHost));
              all.addAll(active.get(secondHost));
              assertThat(all).doesNotHaveDuplicates().hasSize(9);
              assertThat(browser.texts(".lag .text"))
                  .isNotEmpty()
                  .allSatisfy((bar) -> assertThat(bar).startsWith("restored 100 %"));
            });
        String customer = "customer-1";
        browser.lookUp(OrderViewsClient.ORDERS_PER_CUSTOMER, customer);
        eventually(
            () -> {
              assertThat(browser.text("answer-value"))
                  .isEqualTo(String.valueOf(expectedOrders.get(customer)));
              assertThat(browser.text("answer-served-by")).isIn(firstHost, secondHost);
              assertThat(browser.text("answer-replica")).isEqualTo("active");
              assertThat(browser.text("answer-position")).matches("[A-Za-z0-9_-]{20,}");
            });
        browser.follow();
        long before = expectedOrders.get(customer);
        eventually(() -> assertThat(browser.texts("#changes-list li")).contains("value " + before));
        new OrderViewsClient(port(first)).placeOrder(customer, "1.00", TS);
        expectedOrders.merge(customer, 1L, Long::sum);
        expectedTotals.merge(customer, new BigDecimal("1.00"), BigDecimal::add);
        eventually(
            () ->
                assertThat(browser.texts("#changes-list li").get(0))
                    .isEqualTo("value " + (before + 1)));
        Path docs = Path.of("..", "docs");
        if (Files.isDirectory(docs)) {
          browser.screenshot(docs.resolve("dashboard.png"));
        }
      }
    }

    private void restartSecondWithoutItsState() {
      second.close();
      FileSystemUtils.deleteRecursively(tempDir.resolve("streams-2").toFile());
      second = instance(secondArguments);
    }
  }

  private static State streamsState(ConfigurableApplicationContext app) {
    KafkaStreams streams = app.getBean(StreamsBuilderFactoryBean.class).getKafkaStreams();
    return (streams != null) ? streams.state() : State.CREATED;
  }

  private static ConfigurableApplicationContext instance(String... arguments) {
    String[] common = {
      "--server.port=0", "--sample.generator.enabled=false", "--matview.advertised-host=localhost"
    };
    String[] all = new String[common.length + arguments.length];
    System.arraycopy(common, 0, all, 0, common.length);
    System.arraycopy(arguments, 0, all, common.length, arguments.length);
    return new SpringApplicationBuilder(MatviewSampleApplication.class).run(all);
  }

  private static int port(ConfigurableApplicationContext context) {
    return ((WebServerApplicationContext) context).getWebServer().getPort();
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }
}
