package dev.matview.sample;

import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** Publishes orders as JSON on the orders topic, keyed by order id. */
@Component
class OrderPublisher {

  private final KafkaTemplate<String, String> kafkaTemplate;

  private final JsonMapper jsonMapper;

  private final Clock clock = Clock.systemUTC();

  OrderPublisher(KafkaTemplate<String, String> kafkaTemplate, JsonMapper jsonMapper) {
    this.kafkaTemplate = kafkaTemplate;
    this.jsonMapper = jsonMapper;
  }

  /** Publishes {@code order}, filling in its id and timestamp when absent. */
  CompletableFuture<SendResult<String, String>> publish(Order order) {
    String orderId = order.orderId() != null ? order.orderId() : UUID.randomUUID().toString();
    Instant ts = order.ts() != null ? order.ts() : this.clock.instant();
    Order complete = new Order(orderId, order.customerId(), order.amount(), ts);
    return this.kafkaTemplate.send(
        OrderViews.TOPIC, orderId, this.jsonMapper.writeValueAsString(complete));
  }
}
