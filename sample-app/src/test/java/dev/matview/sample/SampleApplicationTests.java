package dev.matview.sample;

import static dev.matview.sample.OrderViewsClient.ORDERS_PER_CUSTOMER;
import static dev.matview.sample.OrderViewsClient.ORDERS_PER_CUSTOMER_PER_MINUTE;
import static dev.matview.sample.OrderViewsClient.REVENUE_PER_CUSTOMER;
import static dev.matview.sample.OrderViewsClient.assertThatRevenue;
import static dev.matview.sample.OrderViewsClient.eventually;
import static dev.matview.sample.OrderViewsClient.revenue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.devbroker.DevBroker;
import dev.matview.processes.http.HttpProbe.Answer;
import dev.matview.sample.OrderViewsClient.CountWindow;
import dev.matview.test.MatviewIntegrationTest;
import dev.matview.test.ViewAwaiter;
import dev.matview.test.WindowedValue;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.apache.kafka.common.PartitionInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs the sample app on an in-process broker of Matview's test slice, before which the development
 * broker that the sample enables backs off, and reads every view over HTTP.
 */
@MatviewIntegrationTest(properties = "sample.generator.enabled=false")
@DirtiesContext
class SampleApplicationTests {

  private static final Instant MINUTE_0 =
      Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(1));

  private static final Instant MINUTE_1 = MINUTE_0.plus(Duration.ofMinutes(1));

  private static final Instant MINUTE_2 = MINUTE_0.plus(Duration.ofMinutes(2));

  private static OrderViewsClient client;

  @LocalServerPort int port;

  @Autowired KafkaTemplate<String, String> kafka;

  /**
   * Places the known orders minute by minute: the windows accept records only 10 seconds late, so
   * an order of a minute that reaches its partition after an order of a later minute may be
   * dropped.
   */
  @BeforeAll
  static void placeKnownOrders(@LocalServerPort int port, @Autowired ViewAwaiter views) {
    client = new OrderViewsClient(port);
    client.placeOrder("alice", "12.50", MINUTE_0.plusSeconds(5));
    client.placeOrder("bob", "0.99", MINUTE_0.plusSeconds(20));
    client.placeOrder("alice", "7.25", MINUTE_0.plusSeconds(40));
    awaitOrdersInMinute(views, "alice", MINUTE_0, 2);
    awaitOrdersInMinute(views, "bob", MINUTE_0, 1);
    client.placeOrder("alice", "30.10", MINUTE_1.plusSeconds(10));
    client.placeOrder("carol", "19.99", MINUTE_1.plusSeconds(30));
    awaitOrdersInMinute(views, "alice", MINUTE_1, 1);
    awaitOrdersInMinute(views, "carol", MINUTE_1, 1);
    client.placeOrder("bob", "100.01", MINUTE_2.plusSeconds(15));
    awaitOrdersInMinute(views, "bob", MINUTE_2, 1);
  }

  private static void awaitOrdersInMinute(
      ViewAwaiter views, String customer, Instant minute, long orders) {
    WindowedValue<Long> expected =
        new WindowedValue<>(minute, minute.plus(Duration.ofMinutes(1)), orders);
    views.awaitWindows(
        ORDERS_PER_CUSTOMER_PER_MINUTE,
        customer,
        Long.class,
        windows -> assertThat(windows).contains(expected));
  }

  @Test
  void leavesTheDevelopmentBrokerItEnablesOffForTheTestKitsBroker(
      @Autowired ApplicationContext context, @Autowired KafkaConnectionDetails connection) {
    assertThat(context.getBeanProvider(DevBroker.class).getIfAvailable()).isNull();
    assertThat(connection.getBootstrapServers())
        .singleElement()
        .asString()
        .isNotEqualTo("127.0.0.1:9092")
        .isEqualTo(context.getEnvironment().getProperty("spring.kafka.bootstrap-servers"));
  }

  @Test
  void describesEachViewsLookupsTypedInTheOpenApiDocument() {
    Answer docs = client.apiDocs();

    assertThat(docs.status()).isEqualTo(200);
    JsonNode paths = docs.json().required("paths");
    assertThat(paths.has("/views/{view}/keys/{key}")).isFalse();
    assertThat(
            paths
                .path("/views/revenue-per-customer/keys/{key}")
                .path("get")
                .path("responses")
                .path("200")
                .path("content")
                .path("application/json")
                .path("schema")
                .path("properties")
                .path("value")
                .path("$ref")
                .asString())
        .isEqualTo("#/components/schemas/Revenue");
    assertThat(
            docs.json()
                .path("components")
                .path("schemas")
                .path("Revenue")
                .path("properties")
                .propertyNames())
        .containsExactlyInAnyOrder("orders", "total", "max");
    assertThat(paths.has("/views/orders-per-customer-per-minute/keys/{key}/windows")).isTrue();
  }

  /**
   * Orders placed at the start of the first minute, so that they move no partition's stream time
   * past the minutes other tests place orders in.
   */
  @Test
  void aLookupAfterThePlacedOrderSeesItAtOnce() {
    String customer = "dave-" + MINUTE_0.toEpochMilli();
    for (int n = 1; n <= 5; n++) {
      Answer placed =
          client.postOrder(
              "{\"customerId\":\""
                  + customer
                  + "\",\"amount\":3.50,\"ts\":\""
                  + MINUTE_0.plusSeconds(1)
                  + "\"}");
      assertThat(placed.status()).as("%s", placed.body()).isEqualTo(202);
      String after = placed.json().required("after").asString();
      assertThat(after)
          .isEqualTo(
              placed.json().required("topic").asString()
                  + ":"
                  + placed.json().required("partition").asInt()
                  + ":"
                  + placed.json().required("offset").asLong());
      Answer answer = client.keyAfter(ORDERS_PER_CUSTOMER, customer, after);
      assertThat(answer.status()).as("%s", answer.body()).isEqualTo(200);
      assertThat(answer.json().required("value").asLong()).isEqualTo(n);
      assertThat(answer.headers().getFirst("Matview-Position")).isNotBlank();
    }
  }

  @Test
  void countsOrdersPerCustomer() {
    eventually(
        () -> {
          assertThat(client.orders("alice")).isEqualTo(3);
          assertThat(client.orders("bob")).isEqualTo(2);
          assertThat(client.orders("carol")).isEqualTo(1);
        });
  }

  @Test
  void sumsRevenuePerCustomer() {
    eventually(
        () -> {
          assertThatRevenue(client.revenue("alice")).isEqualTo(revenue(3, "49.85", "30.10"));
          assertThatRevenue(client.revenue("bob")).isEqualTo(revenue(2, "101.00", "100.01"));
          assertThatRevenue(client.revenue("carol")).isEqualTo(revenue(1, "19.99", "19.99"));
        });
  }

  @Test
  void countsOrdersPerCustomerPerMinute() {
    eventually(
        () -> {
          assertThat(client.ordersPerMinute("alice", MINUTE_0, MINUTE_2))
              .containsExactly(CountWindow.minute(MINUTE_0, 2), CountWindow.minute(MINUTE_1, 1));
          assertThat(client.ordersPerMinute("bob", MINUTE_0, MINUTE_2))
              .containsExactly(CountWindow.minute(MINUTE_0, 1), CountWindow.minute(MINUTE_2, 1));
          assertThat(client.ordersPerMinute("carol", MINUTE_0, MINUTE_2))
              .containsExactly(CountWindow.minute(MINUTE_1, 1));
        });
  }

  @Test
  void leavesOutWindowsThatStartOutsideTheRange() {
    assertThat(client.ordersPerMinute("alice", MINUTE_0.plusSeconds(1), MINUTE_2))
        .containsExactly(CountWindow.minute(MINUTE_1, 1));
    assertThat(client.ordersPerMinute("bob", MINUTE_0, MINUTE_2.minusMillis(1)))
        .containsExactly(CountWindow.minute(MINUTE_0, 1));
    assertThat(client.ordersPerMinute("carol", MINUTE_2, MINUTE_2.plus(Duration.ofHours(1))))
        .isEmpty();
  }

  @Test
  void keepsCountingOrdersAfterAMalformedRecord() throws Exception {
    for (PartitionInfo partition : this.kafka.partitionsFor(OrderViews.TOPIC)) {
      this.kafka.send(OrderViews.TOPIC, partition.partition(), "malformed", "not json").get();
    }
    client.placeOrder("dave", "5.00", MINUTE_2.plusSeconds(30));
    client.placeOrder("dave", "6.50", MINUTE_2.plusSeconds(40));
    eventually(
        () -> {
          assertThat(client.orders("dave")).isEqualTo(2);
          assertThatRevenue(client.revenue("dave")).isEqualTo(revenue(2, "11.50", "6.50"));
          assertThat(client.ordersPerMinute("dave", MINUTE_2, MINUTE_2))
              .containsExactly(CountWindow.minute(MINUTE_2, 2));
        });
  }

  @Test
  void refusesAnAmountOutsideTheDecimalBoundsAndAnOrderWithoutCustomerWith400() {
    for (String amount : List.of("1e100000000", "1e2000", "0.0000000000000000001")) {
      Answer response =
          client.postOrder("{\"customerId\": \"mallory\", \"amount\": " + amount + "}");
      assertProblem(response, 400);
      assertThat(response.json().path("detail").stringValue()).contains("amount is out of range");
    }
    assertProblem(client.postOrder("{\"amount\": 1}"), 400);
    assertProblem(
        client.postOrder(
            "{\"customerId\": \"mallory\", \"amount\": 1, \"ts\": \"+57900-01-01T00:00:00Z\"}"),
        400);
  }

  @Test
  void listsTheThreeViews() {
    Answer response = client.views();
    assertThat(response.status()).isEqualTo(200);
    assertThat(response.json())
        .isEqualTo(
            JsonMapper.shared()
                .readTree(
                    """
                    [
                      {"name": "orders-per-customer", "kind": "table", "keyType": "String",
                       "valueType": "Long", "window": null, "storeName": "orders-per-customer",
                       "changelogTopic": "matview-sample-orders-per-customer-changelog",
                       "sourceTopic": "orders"},
                      {"name": "revenue-per-customer", "kind": "table", "keyType": "String",
                       "valueType": "Revenue", "window": null, "storeName": "revenue-per-customer",
                       "changelogTopic": "matview-sample-revenue-per-customer-changelog",
                       "sourceTopic": "orders"},
                      {"name": "orders-per-customer-per-minute", "kind": "windowed",
                       "keyType": "String", "valueType": "Long",
                       "window": {"size": "PT1M", "advance": "PT1M", "grace": "PT10S",
                                  "retention": "PT24H"},
                       "storeName": "orders-per-customer-per-minute",
                       "changelogTopic": "matview-sample-orders-per-customer-per-minute-changelog",
                       "sourceTopic": "orders"}
                    ]
                    """));
  }

  @Test
  void namesTheActiveReplicaThatAnswered() {
    eventually(
        () ->
            assertThat(
                    List.of(
                        client.key(ORDERS_PER_CUSTOMER, "alice"),
                        client.key(REVENUE_PER_CUSTOMER, "alice"),
                        client.windows(
                            ORDERS_PER_CUSTOMER_PER_MINUTE,
                            "alice",
                            MINUTE_0.toString(),
                            MINUTE_2.toString())))
                .allSatisfy(
                    response -> {
                      assertThat(response.status()).isEqualTo(200);
                      assertThat(response.header("Matview-Served-By"))
                          .isEqualTo("localhost:" + this.port);
                      assertThat(response.header("Matview-Replica")).isEqualTo("active");
                      assertThat(response.header("Matview-Offset-Lag")).isEqualTo("0");
                    }));
  }

  @Test
  void rejectsBoundsThatAreNotInstants() {
    assertBadRequest(
        client.windows(ORDERS_PER_CUSTOMER_PER_MINUTE, "alice", "yesterday", MINUTE_2.toString()),
        "from");
    assertBadRequest(
        client.windows(ORDERS_PER_CUSTOMER_PER_MINUTE, "alice", MINUTE_0.toString(), "12:00"),
        "to");
  }

  @Test
  void rejectsARangeThatEndsBeforeItStarts() {
    assertBadRequest(
        client.windows(
            ORDERS_PER_CUSTOMER_PER_MINUTE, "alice", MINUTE_2.toString(), MINUTE_0.toString()),
        "from");
  }

  @Test
  void answersNotFoundForAnUnknownView() {
    Answer response = client.key("orders-per-planet", "alice");
    assertProblem(response, 404);
    assertThat(response.json().path("view").stringValue()).isEqualTo("orders-per-planet");
  }

  @Test
  void answersNotFoundForACustomerWithoutOrders() {
    Answer response = client.key(ORDERS_PER_CUSTOMER, "zoe");
    assertProblem(response, 404);
    assertThat(response.json().path("key").stringValue()).isEqualTo("zoe");
  }

  private static void assertBadRequest(Answer response, String parameter) {
    assertProblem(response, 400);
    assertThat(response.json().path("parameter").stringValue()).isEqualTo(parameter);
    assertThat(response.json().path("detail").stringValue()).contains("'" + parameter + "'");
  }

  private static void assertProblem(Answer response, int status) {
    assertThat(response.status()).as("status of %s", response.body()).isEqualTo(status);
    assertThat(response.headers().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
    JsonNode body = response.json();
    assertThat(body.path("status").asInt()).isEqualTo(status);
    assertThat(body.path("detail").stringValue()).isNotBlank();
  }

  @Test
  void exposesTheMatviewsEndpointWithEveryViewAndThisInstanceHoldingEveryPartition() {
    Answer response = client.matviews();
    assertThat(response.status()).isEqualTo(200);
    JsonNode body = response.json();
    assertThat(body.path("views").findValuesAsString("name"))
        .containsExactly(
            "orders-per-customer", "revenue-per-customer", "orders-per-customer-per-minute");
    assertThat(body.path("instances")).hasSize(1);
    JsonNode instance = body.path("instances").path(0);
    assertThat(instance.path("host").asString()).isEqualTo("localhost:" + this.port);
    assertThat(instance.path("active").propertyNames())
        .containsExactlyInAnyOrder(
            "orders-per-customer", "revenue-per-customer", "orders-per-customer-per-minute");
    assertThat(body.path("disk").path("freeBytes").asLong()).isPositive();
  }
}
