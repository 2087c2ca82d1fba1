package dev.matview.benchmarks.handwritten;

import dev.matview.benchmarks.app.HandWrittenStreamsConfig;
import dev.matview.benchmarks.app.Order;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a user would write instead of Matview to serve the lookups of row 1: a Spring Boot web app
 * on Tomcat whose own {@code KafkaStreams} counts the orders of each customer (the topology of the
 * benchmark app's {@code orders-per-customer}: re-keyed by customer through a repartition topic,
 * then counted) with Kafka Streams' own store settings, its record cache included, and whose
 * controller answers each lookup with {@code KafkaStreams.store(...).get(key)}, or through IQv2 in
 * the key's partition, which Kafka Streams tells from its {@code application.server}.
 *
 * <p>Properties: {@code --server.port}, {@code --bench.bootstrap-servers}, {@code --bench.topic},
 * {@code --bench.application-id}, {@code --bench.state-dir}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(HandWrittenLookupsController.class)
public class HandWrittenLookupsApp {

  /** The store the counts are kept in, named as Matview's view is. */
  static final String STORE = "orders-per-customer";

  public static void main(String[] args) {
    HandWrittenApps.run(HandWrittenLookupsApp.class, args);
  }

  /** The Kafka Streams of the app, started with the context and closed with it. */
  @Bean(destroyMethod = "close")
  KafkaStreams ordersPerCustomer(
      @Value("${bench.bootstrap-servers}") String bootstrapServers,
      @Value("${bench.topic}") String topic,
      @Value("${bench.application-id}") String applicationId,
      @Value("${bench.state-dir}") String stateDir,
      @Value("${server.port}") int port) {
    Serde<Order> orders = JsonSerdes.of(JsonMapper.builder().build(), Order.class);
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(topic, Consumed.with(Serdes.String(), orders))
        .groupBy((orderId, order) -> order.customerId(), Grouped.with(Serdes.String(), orders))
        .count(Materialized.as(STORE));
    Properties config = HandWrittenStreamsConfig.of(applicationId, bootstrapServers, stateDir);
    config.put(StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:" + port);
    KafkaStreams streams = new KafkaStreams(builder.build(), config);
    streams.start();
    return streams;
  }
}
