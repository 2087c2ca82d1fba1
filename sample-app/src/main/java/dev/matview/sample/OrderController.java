package dev.matview.sample;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Accepts orders over HTTP and publishes them. */
@RestController
class OrderController {

  private final OrderPublisher publisher;

  OrderController(OrderPublisher publisher) {
    this.publisher = publisher;
  }

  @PostMapping("/orders")
  @ResponseStatus(HttpStatus.ACCEPTED)
  CompletableFuture<Map<String, Object>> place(@RequestBody Order order) {
    return this.publisher
        .publish(order)
        .thenApply(
            result ->
                Map.of(
                    "orderId", result.getProducerRecord().key(),
                    "partition", result.getRecordMetadata().partition(),
                    "offset", result.getRecordMetadata().offset()));
  }
}
