package dev.matview.sample;

import dev.matview.autoconfigure.MatviewProperties;
import dev.matview.view.DecimalBounds;
import dev.matview.view.NumberOutOfBoundsException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirements;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Accepts orders over HTTP and publishes them; refuses with 400 an order that the views could not
 * use: no customer, no amount or one outside the views' decimal bounds, or a time too far ahead.
 */
@RestController
@Tag(name = "orders", description = "Orders placed into the orders topic")
class OrderController {

  private final OrderPublisher publisher;

  private final DecimalBounds bounds;

  private final Duration maxAhead;

  private final Clock clock = Clock.systemUTC();

  OrderController(OrderPublisher publisher, MatviewProperties properties) {
    this.publisher = publisher;
    MatviewProperties.Records records = properties.getRecords();
    this.bounds = new DecimalBounds(records.getMaxDecimalPrecision(), records.getMaxDecimalScale());
    this.maxAhead = records.getMaxEventTimeAhead();
  }

  @PostMapping("/orders")
  @ResponseStatus(HttpStatus.ACCEPTED)
  @Operation(summary = "Publishes an order to the orders topic; answers where it was written")
  @ApiResponse(responseCode = "202", description = "Written: its topic, partition and offset")
  @ApiResponse(
      responseCode = "400",
      description = "An order the views could not use",
      content = @Content(mediaType = "application/problem+json"))
  @SecurityRequirements
  CompletableFuture<Map<String, Object>> place(@RequestBody Order order) {
    return this.publisher
        .publish(checked(order))
        .thenApply(
            result ->
                Map.of(
                    "orderId", result.getProducerRecord().key(),
                    "topic", result.getRecordMetadata().topic(),
                    "partition", result.getRecordMetadata().partition(),
                    "offset", result.getRecordMetadata().offset(),
                    "after",
                        result.getRecordMetadata().topic()
                            + ":"
                            + result.getRecordMetadata().partition()
                            + ":"
                            + result.getRecordMetadata().offset()));
  }

  @ExceptionHandler(InvalidOrderException.class)
  ProblemDetail invalidOrder(InvalidOrderException ex) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
    problem.setTitle("Invalid order");
    return problem;
  }

  private Order checked(Order order) {
    if (order.customerId() == null || order.customerId().isBlank()) {
      throw new InvalidOrderException("An order needs a customerId, for example \"customer-1\"");
    }
    if (order.amount() == null) {
      throw new InvalidOrderException("An order needs an amount, for example 12.50");
    }
    try {
      this.bounds.check(order.amount());
    } catch (NumberOutOfBoundsException ex) {
      throw new InvalidOrderException("The amount is out of range. " + ex.getMessage());
    }
    Instant latest = this.clock.instant().plus(this.maxAhead);
    if (order.ts() != null && order.ts().isAfter(latest)) {
      throw new InvalidOrderException(
          "The order's ts " + order.ts() + " lies after " + latest + ": leave it out for now");
    }
    return order;
  }

  /** An order the views could not use. */
  static final class InvalidOrderException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    InvalidOrderException(String message) {
      super(message);
    }
  }
}
