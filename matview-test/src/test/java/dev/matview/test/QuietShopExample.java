package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A passing slice test as a user writes one, run only in a child JVM by {@link QuietOutputTests}
 * (its name is not one the build runs).
 */
@ShopIntegrationTest
class QuietShopExample {

  @Autowired MatviewTestPublisher publisher;

  @Autowired MatviewTestClient client;

  @Test
  void countsAnOrder() {
    this.publisher.publish("orders", "quiet-1", Order.of("quiet", 1, "1.00", Instant.now()));
    HttpView<String, Long> counts =
        this.client.view("orders-per-customer", String.class, Long.class);
    Awaitility.await()
        .atMost(ViewAwaiter.DEFAULT_TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .untilAsserted(() -> assertThat(counts.get("quiet").body()).isEqualTo(Optional.of(1L)));
  }
}
