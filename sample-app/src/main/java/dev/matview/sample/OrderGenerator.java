package dev.matview.sample;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Publishes random orders at {@code sample.generator.rate} per second. */
@Component
@ConditionalOnBooleanProperty(name = "sample.generator.enabled", matchIfMissing = true)
class OrderGenerator {

  private static final int TICKS_PER_SECOND = 10;

  private final OrderPublisher publisher;

  private final SampleProperties.Generator settings;

  private double owed;

  OrderGenerator(OrderPublisher publisher, SampleProperties properties) {
    this.publisher = publisher;
    this.settings = properties.generator();
  }

  @Scheduled(fixedRate = 1000 / TICKS_PER_SECOND)
  void publishTick() {
    this.owed += (double) this.settings.rate() / TICKS_PER_SECOND;
    while (this.owed >= 1) {
      this.owed -= 1;
      this.publisher.publish(randomOrder());
    }
  }

  private Order randomOrder() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    String customer = "customer-" + (1 + random.nextInt(Math.max(1, this.settings.customers())));
    BigDecimal amount =
        BigDecimal.valueOf(100 + random.nextInt(50_000))
            .movePointLeft(2)
            .setScale(2, RoundingMode.UNNECESSARY);
    return new Order(null, customer, amount, null);
  }
}
