package dev.matview.benchmarks.app;

import dev.matview.benchmarks.Flags;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.KeyValueStore;
import tools.jackson.databind.json.JsonMapper;

/**
 * Row 5's baseline: {@code revenue-per-customer} written by hand with the Kafka Streams DSL, the
 * same topology (re-key by customer through a repartition topic, aggregate into a store with or
 * without Kafka Streams' record cache, which Matview's table views have) and the same settings as
 * the benchmark app's Streams (commit interval, replication, defaults otherwise).
 *
 * <p>Flags: {@code --bootstrap-servers}, {@code --topic}, {@code --application-id}, {@code
 * --state-dir}, {@code --caching} (whether the store keeps Kafka's record cache, false by default).
 */
public final class HandWrittenAggregation {

  private HandWrittenAggregation() {}

  public static void main(String[] args) throws InterruptedException {
    Flags flags = Flags.parse(args);
    JsonMapper json = JsonMapper.builder().build();
    Serde<Order> orders = jsonSerde(json, Order.class);
    Serde<Revenue> revenues = jsonSerde(json, Revenue.class);
    boolean caching = flags.bool("caching", false);
    Materialized<String, Revenue, KeyValueStore<Bytes, byte[]>> store =
        Materialized.<String, Revenue, KeyValueStore<Bytes, byte[]>>as("revenue-per-customer")
            .withKeySerde(Serdes.String())
            .withValueSerde(revenues);
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(flags.text("topic", "orders"), Consumed.with(Serdes.String(), orders))
        .groupBy((orderId, order) -> order.customerId(), Grouped.with(Serdes.String(), orders))
        .aggregate(
            Revenue::none,
            (customerId, order, revenue) -> revenue.plus(order.amount()),
            caching ? store.withCachingEnabled() : store.withCachingDisabled());
    Properties config = HandWrittenStreamsConfig.of(flags, "hand-written");
    CountDownLatch stopped = new CountDownLatch(1);
    KafkaStreams streams = new KafkaStreams(builder.build(), config);
    streams.setStateListener(
        (now, before) -> {
          if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
            stopped.countDown();
          }
        });
    Runtime.getRuntime().addShutdownHook(new Thread(streams::close));
    streams.start();
    stopped.await();
  }

  /** A serde that writes and reads {@code type} as JSON with {@code json}. */
  public static <T> Serde<T> jsonSerde(JsonMapper json, Class<T> type) {
    Serializer<T> serializer = (topic, value) -> json.writeValueAsBytes(value);
    Deserializer<T> deserializer = (topic, bytes) -> json.readValue(bytes, type);
    return Serdes.serdeFrom(serializer, deserializer);
  }
}
