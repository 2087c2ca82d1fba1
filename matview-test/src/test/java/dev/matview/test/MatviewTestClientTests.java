package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;

/**
 * The slice's client reads the views of the application over real HTTP on its port, from records
 * published to the slice's broker.
 */
@ShopIntegrationTest
class MatviewTestClientTests {

  private static final Instant MINUTE =
      Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(1));

  @Autowired MatviewTestClient client;

  @Autowired MatviewTestPublisher publisher;

  @Autowired Shop.LastViewRequest lastRequest;

  @LocalServerPort int port;

  @Test
  void readsAKeysValueOnTheApplicationsPortWithTheHeadersOfTheReplicaThatAnswered() {
    this.publisher.publish("orders", "erin-1", Order.of("erin", 1, "4.00", MINUTE));
    this.publisher.publish("orders", "erin-2", Order.of("erin", 1, "6.50", MINUTE));
    HttpView<String, BigDecimal> revenue =
        this.client.view("revenue-per-customer", String.class, BigDecimal.class);

    ViewAnswer<Optional<BigDecimal>> answer =
        eventually(
            () -> revenue.get("erin"),
            found ->
                found
                    .body()
                    .filter(total -> total.compareTo(new BigDecimal("10.50")) == 0)
                    .isPresent());

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.servedBy()).isEqualTo("localhost:" + this.port);
    assertThat(answer.replica()).isEqualTo("active");
    assertThat(answer.header("Matview-Offset-Lag")).isNotBlank();
    assertThat(this.client.rootUrl()).isEqualTo("http://localhost:" + this.port);
  }

  @Test
  void answers404WithAnEmptyBodyForAKeyWithoutAValue() {
    HttpView<String, Long> counts =
        this.client.view("orders-per-customer", String.class, Long.class);

    ViewAnswer<Optional<Long>> answer =
        eventually(() -> counts.get("nobody-at-all"), found -> found.status() == 404);

    assertThat(answer.body()).isEmpty();
    assertThat(answer.servedBy()).isEqualTo("localhost:" + this.port);
  }

  @Test
  void readsTheWindowsOfAKeyInARange() {
    this.publisher.publish(
        "orders", "frank-1", Order.of("frank", 1, "1.00", MINUTE.plusSeconds(5)));
    this.publisher.publish(
        "orders", "frank-2", Order.of("frank", 1, "1.00", MINUTE.plusSeconds(50)));
    HttpView<String, Long> perMinute =
        this.client.view("orders-per-customer-per-minute", String.class, Long.class);
    WindowedValue<Long> expected = new WindowedValue<>(MINUTE, MINUTE.plusSeconds(60), 2L);

    ViewAnswer<List<WindowedValue<Long>>> answer =
        eventually(
            () -> perMinute.windows("frank", MINUTE, MINUTE.plusSeconds(59)),
            found -> found.body().equals(List.of(expected)));

    assertThat(answer.replica()).isEqualTo("active");
  }

  @Test
  void looksUpABatchOfKeysInTheOrderAsked() {
    this.publisher.publish("orders", "grace-1", Order.of("grace", 1, "1.00", MINUTE));
    this.publisher.publish("orders", "heidi-1", Order.of("heidi", 1, "1.00", MINUTE));
    this.publisher.publish("orders", "heidi-2", Order.of("heidi", 1, "1.00", MINUTE));
    HttpView<String, Long> counts =
        this.client.view("orders-per-customer", String.class, Long.class);
    List<Optional<Long>> expected = List.of(Optional.of(2L), Optional.empty(), Optional.of(1L));

    eventually(
        () -> counts.batch(List.of("heidi", "nobody-at-all", "grace")),
        found -> found.body().equals(expected));
  }

  @Test
  void scansKeysAPageAtATimeByFollowingTheCursor() {
    for (String customer : List.of("scan-a", "scan-b", "scan-c")) {
      this.publisher.publish("orders", customer, Order.of(customer, 1, "1.00", MINUTE));
    }
    HttpView<String, Long> counts =
        this.client.view("orders-per-customer", String.class, Long.class);

    List<ViewEntry<String, Long>> scanned =
        eventually(() -> scanAll(counts, "scan-", "scan-z"), entries -> entries.size() == 3);

    assertThat(scanned)
        .containsExactlyInAnyOrder(
            new ViewEntry<>("scan-a", 1L),
            new ViewEntry<>("scan-b", 1L),
            new ViewEntry<>("scan-c", 1L));
  }

  @Test
  void streamsEveryKeyWithinBoundsInOneAnswer() {
    for (String customer : List.of("stream-a", "stream-b", "stream-c")) {
      this.publisher.publish("orders", customer, Order.of(customer, 1, "1.00", MINUTE));
    }
    HttpView<String, Long> counts =
        this.client.view("orders-per-customer", String.class, Long.class);

    ViewPage<String, Long> streamed =
        eventually(
            () -> counts.stream("stream-", "stream-z").body(), page -> page.items().size() == 3);

    assertThat(streamed.nextCursor()).isNull();
    assertThat(streamed.items())
        .containsExactlyInAnyOrder(
            new ViewEntry<>("stream-a", 1L),
            new ViewEntry<>("stream-b", 1L),
            new ViewEntry<>("stream-c", 1L));
  }

  @Test
  void asksAnyKeyARecordKeyAsJsonASlashOrADotSegmentToo() {
    this.publisher.publish("orders", "ivan-1", Order.of("ivan", 2, "1.00", MINUTE));
    this.publisher.publish("orders", "slash-1", Order.of("i/v a+n", 1, "1.00", MINUTE));
    this.publisher.publish("orders", "dots-1", Order.of("..", 1, "1.00", MINUTE));
    HttpView<Shop.CustomerQuantity, Long> counts =
        this.client.view("orders-per-customer-quantity", Shop.CustomerQuantity.class, Long.class);
    HttpView<String, Long> perCustomer =
        this.client.view("orders-per-customer", String.class, Long.class);

    eventually(
        () -> counts.get(new Shop.CustomerQuantity("ivan", 2)),
        found -> found.body().equals(Optional.of(1L)));
    for (String customer : List.of("i/v a+n", "..")) {
      eventually(() -> perCustomer.get(customer), found -> found.body().equals(Optional.of(1L)));
    }
  }

  @Test
  void sendsTheRecordToWaitForThePositionAndOtherOptionsWithEachRequest() {
    RecordMetadata sent =
        this.publisher.publish("orders", "judy-1", Order.of("judy", 1, "1.00", MINUTE));
    HttpView<String, Long> afterWrite =
        this.client.view("orders-per-customer", String.class, Long.class).after(sent);
    ViewAnswer<Optional<Long>> written =
        eventually(() -> afterWrite.get("judy"), found -> found.body().equals(Optional.of(1L)));
    String token = written.position();
    assertThat(token).isNotBlank();
    HttpView<String, Long> counts =
        afterWrite.position(token).parameter("position", token).parameter("allowStale", "true");

    assertThat(counts.get("judy").body()).contains(1L);

    Shop.LastViewRequest.Seen seen = this.lastRequest.seen();
    assertThat(seen).isNotNull();
    assertThat(seen.parameters().get("after"))
        .containsExactly("orders:" + sent.partition() + ":" + sent.offset());
    assertThat(seen.parameters().get("position")).containsExactly(token);
    assertThat(seen.parameters().get("allowStale")).containsExactly("true");
    assertThat(seen.position()).isEqualTo(token);
  }

  @Test
  void throwsAnyOtherAnswerAsTheRestClientExceptionOfItsStatus() {
    HttpView<String, Long> counts =
        this.client.view("orders-per-customer", String.class, Long.class);

    Throwable refusal =
        eventually(
            () -> catchThrowable(() -> counts.scan(1_000_000, null)),
            thrown -> !(thrown instanceof HttpServerErrorException.ServiceUnavailable));

    assertThat(refusal)
        .isInstanceOfSatisfying(
            HttpClientErrorException.BadRequest.class,
            ex -> assertThat(ex.getResponseBodyAsString()).contains("\"parameter\":\"limit\""));
  }

  @Test
  void refusesAViewOfOtherTypesOrKindBeforeAnyRequest() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.client.view("orders-per-customer", String.class, Integer.class))
        .withMessage(
            "View 'orders-per-customer' has values of type java.lang.Long, not java.lang.Integer:"
                + " pass as its value type Long");
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                this.client
                    .view("orders-per-customer-per-minute", String.class, Long.class)
                    .get("alice"))
        .withMessage(
            "View 'orders-per-customer-per-minute' is a windowed view: read the key's windows with"
                + " windows(key)");
  }

  @Test
  void offersARestClientForTheApplicationsOtherEndpoints() {
    String views = this.client.restClient().get().uri("/views").retrieve().body(String.class);

    assertThat(views).contains("\"name\":\"orders-per-customer\"");
  }

  private static List<ViewEntry<String, Long>> scanAll(
      HttpView<String, Long> view, String from, String to) {
    List<ViewEntry<String, Long>> entries = new ArrayList<>();
    @Nullable String cursor = null;
    do {
      ViewPage<String, Long> page = view.scan(from, to, 2, cursor).body();
      assertThat(page.items()).hasSizeLessThanOrEqualTo(2);
      entries.addAll(page.items());
      cursor = page.nextCursor();
    } while (cursor != null);
    return entries;
  }

  /** The first answer that passes {@code done}, asked again while the view cannot answer yet. */
  private static <T> T eventually(Callable<T> answer, Predicate<? super T> done) {
    return Awaitility.await()
        .atMost(ViewAwaiter.DEFAULT_TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .until(answer, done);
  }
}
