package dev.matview.benchmarks.handwritten;

import dev.matview.benchmarks.app.Order;
import dev.matview.benchmarks.app.Revenue;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.KeyValueStore;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.EnableKafkaStreams;
import tools.jackson.databind.json.JsonMapper;

/**
 * Row 5's baseline: what a user would write instead of Matview's {@code revenue-per-customer}, a
 * Spring Boot app like the benchmark app (web server, actuator, Jackson, and Boot's Kafka Streams
 * through {@code @EnableKafkaStreams}, configured from the same {@code spring.kafka.streams.*}
 * properties), whose topology re-keys each order by customer through a repartition topic and
 * aggregates its revenue into a store with or without Kafka Streams' record cache.
 *
 * <p>Properties: those every instance of the benchmark app is launched with ({@code server.port},
 * {@code spring.kafka.*}, {@code bench.topic}, {@code bench.container}), and {@code bench.caching},
 * whether the store keeps Kafka's record cache (false by default).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableKafkaStreams
public class HandWrittenAggregationApp {

  /** The store the revenues are kept in, named as Matview's view is. */
  static final String STORE = "revenue-per-customer";

  public static void main(String[] args) {
    HandWrittenApps.run(HandWrittenAggregationApp.class, args);
  }

  /** The aggregation, added to the topology of the app's Kafka Streams. */
  @Bean
  KTable<String, Revenue> revenuePerCustomer(
      StreamsBuilder builder,
      @Value("${bench.topic}") String topic,
      @Value("${bench.caching:false}") boolean caching) {
    JsonMapper json = JsonMapper.builder().build();
    Serde<Order> orders = JsonSerdes.of(json, Order.class);
    Materialized<String, Revenue, KeyValueStore<Bytes, byte[]>> store =
        Materialized.<String, Revenue, KeyValueStore<Bytes, byte[]>>as(STORE)
            .withKeySerde(Serdes.String())
            .withValueSerde(JsonSerdes.of(json, Revenue.class));
    return builder.stream(topic, Consumed.with(Serdes.String(), orders))
        .groupBy((orderId, order) -> order.customerId(), Grouped.with(Serdes.String(), orders))
        .aggregate(
            Revenue::none,
            (customerId, order, revenue) -> revenue.plus(order.amount()),
            caching ? store.withCachingEnabled() : store.withCachingDisabled());
  }
}
