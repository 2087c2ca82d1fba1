package dev.matview.deadletter;

import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.processor.TaskId;
import tools.jackson.databind.json.JsonMapper;

/** Views, a producer and error contexts shared by the dead-letter tests. */
final class DeadLetterFixtures {

  static final String APPLICATION_ID = "shop-app";

  static final String DEAD_LETTER_TOPIC = "shop-app-dlq";

  private DeadLetterFixtures() {}

  /** Two views on topic {@code sales}: one by record key, one re-keyed by customer. */
  static ViewRegistry registry() {
    Map<String, ViewDefinition<?, ?, ?>> views = new LinkedHashMap<>();
    views.put("per-shop", Views.from("sales", Sale.class).count());
    views.put(
        "per-customer",
        Views.from("sales", Sale.class).groupBy(String.class, Sale::customer).count());
    return ViewRegistry.of(views, new ViewSerdes(JsonMapper.builder().build()), APPLICATION_ID);
  }

  static MockProducer<byte[], byte[]> producer() {
    return new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
  }

  static Map<String, Object> configs(
      MockProducer<byte[], byte[]> producer, DeadLetterListener listener) {
    DeadLetterPublisher publisher =
        new DeadLetterPublisher(DEAD_LETTER_TOPIC, () -> producer, listener, 1048576);
    return Map.of(DeadLetters.CONFIG, new DeadLetters(ViewLocator.of(registry()), publisher));
  }

  static String header(Headers headers, String name) {
    return Optional.ofNullable(headers.lastHeader(name))
        .map(Header::value)
        .map(value -> new String(value, StandardCharsets.UTF_8))
        .orElse(null);
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  record Sale(String shop, String customer) {}

  /** The error context Kafka Streams hands a handler. */
  record Context(
      String topic,
      int partition,
      long offset,
      Headers headers,
      String processorNodeId,
      TaskId taskId,
      long timestamp,
      byte[] sourceRawKey,
      byte[] sourceRawValue)
      implements ErrorHandlerContext {}
}
