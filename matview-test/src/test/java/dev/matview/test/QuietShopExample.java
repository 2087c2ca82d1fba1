package dev.matview.test;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * A passing slice test as a user writes one, run only in a child JVM by {@link QuietOutputTests}
 * (its name is not one the build runs).
 */
@ShopIntegrationTest
class QuietShopExample {

  @Autowired KafkaTemplate<String, String> kafka;

  @Autowired ViewAwaiter views;

  @Test
  void countsAnOrder() {
    Order order = Order.of("quiet", 1, "1.00", Instant.now());
    this.kafka.send("orders", "quiet-1", JsonMapper.shared().writeValueAsString(order));
    this.views.awaitView("orders-per-customer", "quiet", 1L);
  }
}
