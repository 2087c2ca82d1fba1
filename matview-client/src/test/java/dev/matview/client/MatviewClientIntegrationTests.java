package dev.matview.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import dev.matview.test.MatviewIntegrationTest;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The client against a real Matview application on a broker of its own, with two partitions per
 * topic: every kind of call, read through HTTP as another service would.
 */
@MatviewIntegrationTest(
    classes = MatviewClientIntegrationTests.Shop.class,
    partitions = 2,
    properties = {
      "spring.kafka.streams.application-id=client-it",
      "matview.advertised-host=localhost",
      "matview.rocksdb.total-memory=32MB"
    })
class MatviewClientIntegrationTests {

  private static final Instant MINUTE =
      Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(1));

  private static final Duration WAIT = Duration.ofSeconds(60);

  private final JsonMapper json = JsonMapper.builder().build();

  @Autowired KafkaTemplate<String, String> kafka;

  @LocalServerPort int port;

  private MatviewClient client;

  private RemoteView<String, Long> orders;

  @BeforeEach
  void createClient() {
    this.client = MatviewClient.create("http://localhost:" + this.port);
    this.orders =
        this.client
            .view("orders-per-customer", String.class, Long.class)
            .withDeadline(Duration.ofSeconds(5));
  }

  @Test
  void readsAValueAndWhichReplicaAnsweredIt() {
    send(Order.of("alice", 1, "10.00", MINUTE));
    send(Order.of("alice", 1, "2.50", MINUTE));
    awaitValue(this.orders, "alice", 2L);
    Answer<Optional<Long>> answer = this.orders.lookup("alice");
    assertThat(answer.value()).contains(2L);
    assertThat(answer.metadata().servedBy()).isEqualTo("localhost:" + this.port);
    assertThat(answer.metadata().replica()).isEqualTo("active");
    assertThat(answer.metadata().offsetLag()).isZero();
  }

  @Test
  void readsItsOwnWritesAndCarriesThePositionOfEachAnswer() throws Exception {
    awaitRunning();
    for (int n = 1; n <= 5; n++) {
      RecordMetadata sent =
          this.kafka
              .send(
                  "orders", "bob", this.json.writeValueAsString(Order.of("bob", 1, "1.00", MINUTE)))
              .get(30, TimeUnit.SECONDS)
              .getRecordMetadata();
      assertThat(this.orders.after(sent).get("bob")).contains((long) n);
      assertThat(this.client.position("orders-per-customer")).isPresent();
    }
    assertThat(this.orders.lookup("bob").metadata().position())
        .isEqualTo(this.client.position("orders-per-customer").orElseThrow());
  }

  @Test
  void followsTheChangesOfAKeyFromItsCurrentValueOn() throws Exception {
    awaitRunning();
    LinkedBlockingQueue<Change<String, Long>> changes = new LinkedBlockingQueue<>();
    try (ChangeSubscription subscription = this.orders.changes("frank", changes::add)) {
      Change<String, Long> first = changes.poll(30, TimeUnit.SECONDS);
      assertThat(first).isNotNull();
      assertThat(first.kind()).isEqualTo(Change.Kind.DELETED);
      assertThat(first.key()).isEqualTo("frank");
      for (int n = 1; n <= 5; n++) {
        send(Order.of("frank", 1, "1.00", MINUTE));
      }
      for (long n = 1; n <= 5; n++) {
        Change<String, Long> next = changes.poll(30, TimeUnit.SECONDS);
        assertThat(next).isNotNull();
        assertThat(next.kind()).isEqualTo(Change.Kind.VALUE);
        assertThat(next.value()).isEqualTo(n);
      }
      assertThat(subscription.lastEventId()).isPresent();
      assertThat(subscription.isOpen()).isTrue();
      subscription.close();
      assertThat(subscription.isOpen()).isFalse();
    }
  }

  @Test
  void answersEmptyForAKeyWithoutAValue() {
    send(Order.of("someone", 1, "1.00", MINUTE));
    awaitValue(this.orders, "someone", 1L);
    assertThat(this.orders.get("no-such-customer")).isEmpty();
  }

  @Test
  void refusesAnUnknownViewAndWindowsOfATable() {
    awaitRunning();
    assertThatExceptionOfType(MatviewUnknownViewException.class)
        .isThrownBy(
            () -> this.client.view("orders-per-planet", String.class, Long.class).get("alice"))
        .satisfies(ex -> assertThat(ex.problem().view()).isEqualTo("orders-per-planet"));
    assertThatExceptionOfType(MatviewBadRequestException.class)
        .isThrownBy(() -> this.orders.windows("alice"))
        .satisfies(ex -> assertThat(ex.status()).isEqualTo(400));
  }

  @Test
  void readsTheWindowsOfAKey() {
    send(Order.of("carol", 1, "1.00", MINUTE.plusSeconds(10)));
    send(Order.of("carol", 1, "1.00", MINUTE.plusSeconds(20)));
    send(Order.of("carol", 1, "1.00", MINUTE.plusSeconds(70)));
    RemoteView<String, Long> perMinute =
        this.client.view("orders-per-customer-per-minute", String.class, Long.class);
    List<Window<Long>> expected =
        List.of(
            new Window<>(MINUTE, MINUTE.plusSeconds(60), 2L),
            new Window<>(MINUTE.plusSeconds(60), MINUTE.plusSeconds(120), 1L));
    await()
        .atMost(WAIT)
        .ignoreException(MatviewUnavailableException.class)
        .untilAsserted(
            () ->
                assertThat(
                        perMinute.windows(
                            "carol", MINUTE.minusSeconds(60), MINUTE.plusSeconds(120)))
                    .isEqualTo(expected));
  }

  @Test
  void readsABatchInTheOrderAsked() {
    send(Order.of("batch-a", 1, "1.00", MINUTE));
    send(Order.of("batch-b", 1, "1.00", MINUTE));
    send(Order.of("batch-b", 1, "1.00", MINUTE));
    awaitValue(this.orders, "batch-b", 2L);
    awaitValue(this.orders, "batch-a", 1L);
    assertThat(this.orders.lookupAll(List.of("batch-b", "nobody", "batch-a")).value())
        .containsExactly(
            new BatchItem<>("batch-b", true, 2L),
            new BatchItem<>("nobody", false, null),
            new BatchItem<>("batch-a", true, 1L));
  }

  @Test
  void readsBatchesAndFollowsKeysThatNoPathCarries() throws Exception {
    List<String> customers = List.of("a/b", "..", ".", "ü/x c+d", "%2F", "b\\s");
    customers.forEach(customer -> send(Order.of(customer, 1, "1.00", MINUTE)));
    customers.forEach(customer -> awaitValue(this.orders, customer, 1L));
    assertThat(this.orders.getAll(customers))
        .containsExactlyInAnyOrderEntriesOf(
            customers.stream().collect(Collectors.toMap(customer -> customer, customer -> 1L)));
    RemoteView<String, Long> perMinute =
        this.client.view("orders-per-customer-per-minute", String.class, Long.class);
    List<Window<Long>> one = List.of(new Window<>(MINUTE, MINUTE.plusSeconds(60), 1L));
    await()
        .atMost(WAIT)
        .ignoreException(MatviewUnavailableException.class)
        .untilAsserted(
            () -> {
              Map<String, List<Window<Long>>> windows =
                  perMinute.lookupAllWindows(customers, MINUTE, MINUTE).value();
              assertThat(windows).containsOnlyKeys(customers);
              assertThat(windows.values()).allSatisfy(each -> assertThat(each).isEqualTo(one));
              assertThat(perMinute.windows("..", MINUTE, MINUTE)).isEqualTo(one);
            });
    LinkedBlockingQueue<Change<String, Long>> changes = new LinkedBlockingQueue<>();
    try (ChangeSubscription subscription = this.orders.changes("..", changes::add)) {
      Change<String, Long> first = changes.poll(30, TimeUnit.SECONDS);
      assertThat(first).isNotNull();
      assertThat(first.key()).isEqualTo("..");
      assertThat(first.value()).isEqualTo(1L);
    }
  }

  @Test
  void scansEveryKeyOnceAcrossPages() {
    List<String> customers = List.of("scan-1", "scan-2", "scan-3", "scan-4", "scan-5");
    customers.forEach(customer -> send(Order.of(customer, 1, "1.00", MINUTE)));
    customers.forEach(customer -> awaitValue(this.orders, customer, 1L));
    RemoteView<String, Long> paged = this.orders.withPageSize(2);
    assertThat(paged.page("scan-0", "scan-9", null).value().hasNext()).isTrue();
    List<KeyValue<String, Long>> scanned = paged.scan("scan-0", "scan-9").toList();
    assertThat(scanned)
        .containsExactlyInAnyOrderElementsOf(
            customers.stream().map(customer -> new KeyValue<>(customer, 1L)).toList());
  }

  @Test
  void streamsEveryKeyAndWindowOfARangeInOneResponse() {
    List<String> customers = List.of("stream-1", "stream-2", "stream-3", "stream-4", "stream-5");
    customers.forEach(customer -> send(Order.of(customer, 1, "1.00", MINUTE)));
    customers.forEach(customer -> awaitValue(this.orders, customer, 1L));
    try (Stream<KeyValue<String, Long>> streamed = this.orders.stream("stream-0", "stream-9")) {
      assertThat(streamed.toList())
          .containsExactlyInAnyOrderElementsOf(
              customers.stream().map(customer -> new KeyValue<>(customer, 1L)).toList());
    }
    RemoteView<String, Long> perMinute =
        this.client
            .view("orders-per-customer-per-minute", String.class, Long.class)
            .withDeadline(Duration.ofSeconds(5));
    await()
        .atMost(WAIT)
        .ignoreException(MatviewUnavailableException.class)
        .untilAsserted(
            () -> {
              try (Stream<KeyWindow<String, Long>> windows =
                  perMinute.streamWindows(MINUTE, MINUTE)) {
                assertThat(windows.filter(window -> window.key().startsWith("stream-")).toList())
                    .containsExactlyInAnyOrderElementsOf(
                        customers.stream()
                            .map(
                                customer ->
                                    new KeyWindow<>(customer, MINUTE, MINUTE.plusSeconds(60), 1L))
                            .toList());
              }
            });
  }

  @Test
  void readsRecordKeysAndValuesOfAGenericType() {
    send(Order.of("dave", 3, "4.25", MINUTE));
    RemoteView<CustomerQuantity, Long> byQuantity =
        this.client.view("orders-per-customer-quantity", CustomerQuantity.class, Long.class);
    awaitValue(byQuantity, new CustomerQuantity("dave", 3), 1L);
    RemoteView<String, Map<String, Object>> latest =
        this.client.view(
            "latest-order-per-customer",
            String.class,
            new ParameterizedTypeReference<Map<String, Object>>() {});
    Map<String, Object> order = latest.get("dave").orElseThrow();
    assertThat(order).containsEntry("customer", "dave").containsEntry("quantity", 3);
    assertThat(new BigDecimal(order.get("amount").toString())).isEqualByComparingTo("4.25");
  }

  /** Waits until the app answers, whichever test of the shared app asks first. */
  private void awaitRunning() {
    send(Order.of("warm-up", 1, "1.00", MINUTE));
    await()
        .atMost(WAIT)
        .ignoreException(MatviewUnavailableException.class)
        .until(() -> this.orders.get("warm-up"), Optional::isPresent);
  }

  private static <K> void awaitValue(RemoteView<K, Long> view, K key, long expected) {
    await()
        .atMost(WAIT)
        .ignoreException(MatviewUnavailableException.class)
        .until(() -> view.get(key), value -> value.equals(Optional.of(expected)));
  }

  /** Sends {@code order} keyed by its customer, so that a customer's orders keep their order. */
  private void send(Order order) {
    this.kafka.send("orders", order.customer(), this.json.writeValueAsString(order));
  }

  /**
   * An order.
   *
   * @param orderId the order's id
   * @param customer who ordered
   * @param quantity how many items
   * @param amount what it cost
   * @param at when it was placed
   */
  record Order(String orderId, String customer, long quantity, BigDecimal amount, Instant at) {

    static Order of(String customer, long quantity, String amount, Instant at) {
      return new Order(
          customer + "-" + at.toEpochMilli() + "-" + amount,
          customer,
          quantity,
          new BigDecimal(amount),
          at);
    }
  }

  /**
   * A composite key, written as JSON.
   *
   * @param customer the customer
   * @param quantity the quantity ordered
   */
  record CustomerQuantity(String customer, long quantity) {}

  /** The application whose views the client reads. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class Shop {

    @MaterializedView("orders-per-customer")
    ViewDefinition<String, Order, Long> ordersPerCustomer() {
      return Views.from("orders", Order.class).groupBy(String.class, Order::customer).count();
    }

    @MaterializedView("latest-order-per-customer")
    ViewDefinition<String, Order, Order> latestOrderPerCustomer() {
      return Views.from("orders", Order.class).groupBy(String.class, Order::customer).latest();
    }

    @MaterializedView("orders-per-customer-per-minute")
    ViewDefinition<String, Order, Long> ordersPerCustomerPerMinute() {
      return Views.from("orders", Order.class)
          .eventTime(Order::at)
          .groupBy(String.class, Order::customer)
          .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)).withGrace(Duration.ofHours(2)))
          .count();
    }

    @MaterializedView("orders-per-customer-quantity")
    ViewDefinition<CustomerQuantity, Order, Long> ordersPerCustomerQuantity() {
      return Views.from("orders", Order.class)
          .groupBy(
              CustomerQuantity.class,
              order -> new CustomerQuantity(order.customer(), order.quantity()))
          .count();
    }
  }
}
