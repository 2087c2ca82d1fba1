package dev.matview.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.matview.client.StubServer.Reply;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tests of the positions a client carries from one call of a view to the next, and of the records a
 * call waits for.
 */
class PositionsTests {

  private final StubServer server = StubServer.start();

  private final MatviewClient client = MatviewClient.create(this.server.baseUrl());

  private final RemoteView<String, Long> orders =
      this.client.view("orders-per-customer", String.class, Long.class);

  @AfterEach
  void stopServer() {
    this.server.close();
  }

  @Test
  void sendsThePositionOfAViewsLastAnswerWithItsNextCall() {
    this.server
        .then(value().with("Matview-Position", "p-1"))
        .then(value().with("Matview-Position", "p-2"))
        .then(value());
    assertThat(this.orders.lookup("alice").metadata().position()).isEqualTo("p-1");
    assertThat(this.server.lastRequest().header("Matview-Position")).isNull();
    this.orders.get("alice");
    assertThat(this.server.lastRequest().header("Matview-Position")).isEqualTo("p-1");
    assertThat(this.client.position("orders-per-customer")).contains("p-2");
    this.orders.get("bob");
    assertThat(this.server.lastRequest().header("Matview-Position")).isEqualTo("p-2");
    assertThat(this.client.position("orders-per-customer")).contains("p-2");
  }

  @Test
  void keepsThePositionOfEachViewApart() {
    this.server.then(value().with("Matview-Position", "p-1")).always(value());
    this.orders.get("alice");
    this.client.view("revenue-per-customer", String.class, Long.class).get("alice");
    assertThat(this.server.lastRequest().header("Matview-Position")).isNull();
    assertThat(this.client.position("revenue-per-customer")).isEmpty();
  }

  @Test
  void keepsThePositionOfAnAnswerThatFoundNoValue() {
    this.server
        .then(
            Reply.problem(
                    404,
                    "{\"type\": \"https://matview.dev/problems/key-not-found\", \"status\": 404}")
                .with("Matview-Position", "p-1"))
        .always(value());
    assertThat(this.orders.get("nobody")).isEmpty();
    this.orders.get("alice");
    assertThat(this.server.lastRequest().header("Matview-Position")).isEqualTo("p-1");
  }

  @Test
  void sendsTheHeldPositionAgainWhenItAsksAgainAfterA503() {
    this.server
        .then(value().with("Matview-Position", "p-1"))
        .then(Reply.unavailable(503, 1))
        .then(value().with("Matview-Position", "p-2"));
    this.orders.get("alice");
    this.orders.get("alice");
    assertThat(this.server.requests())
        .extracting(request -> request.header("Matview-Position"))
        .containsExactly(null, "p-1", "p-1");
    assertThat(this.client.position("orders-per-customer")).contains("p-2");
  }

  @Test
  void sendsNoPositionAndKeepsNoneWithoutConsistency() {
    this.server.always(value().with("Matview-Position", "p-1"));
    RemoteView<String, Long> any = this.orders.withConsistency(Consistency.NONE);
    any.get("alice");
    any.get("alice");
    assertThat(this.server.lastRequest().header("Matview-Position")).isNull();
    assertThat(this.client.position("orders-per-customer")).isEmpty();
  }

  @Test
  void waitsForTheRecordsAProducerWrote() {
    this.server.always(value());
    RecordMetadata written = new RecordMetadata(new TopicPartition("orders", 3), 42L, 0, 0L, 0, 0);
    this.orders.after(written).after(new InputRecord("refunds", 0, 7)).get("alice");
    assertThat(this.server.lastRequest().params("after"))
        .containsExactly("orders:3:42", "refunds:0:7");
    this.orders.get("alice");
    assertThat(this.server.lastRequest().params("after")).isEmpty();
  }

  @Test
  void refusesARecordWhoseOffsetIsUnknown() {
    RecordMetadata unacknowledged =
        new RecordMetadata(new TopicPartition("orders", 3), -1L, -1, 0L, 0, 0);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.orders.after(unacknowledged))
        .withMessageContaining("offset is unknown");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new InputRecord("a:b", 0, 1))
        .withMessage("topic must be a topic's name, was 'a:b'");
  }

  @Test
  void movesAPositionOnOnlyFromThePositionItsCallWasSentWith() {
    Positions positions = new Positions();
    positions.advance("view", null, "p-1");
    positions.advance("view", "p-1", "p-2");
    positions.advance("view", "p-1", "p-3");
    assertThat(positions.get("view")).isEqualTo("p-2");
    positions.advance("view", null, "p-4");
    assertThat(positions.get("view")).isEqualTo("p-2");
    positions.advance("view", "p-2", null);
    assertThat(positions.get("view")).isEqualTo("p-2");
  }

  private static Reply value() {
    return Reply.json(200, "{\"key\": \"alice\", \"value\": 5}");
  }
}
