package dev.matview.peer;

import dev.matview.kafka.MatviewConfigs;
import dev.matview.kafka.QuietStreamsConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The admin, consumer and producer of one secret agreement, configured as Kafka Streams configures
 * its own clients (without Matview's keys), with no group and no transactions, each request waiting
 * at most the agreement's timeout.
 */
final class AgreementClients {

  private final QuietStreamsConfig config;

  private final String clientId;

  private final int timeoutMs;

  /** The clients of the application that {@code streamsConfiguration} configures. */
  AgreementClients(Properties streamsConfiguration, Duration timeout) {
    this.config = new QuietStreamsConfig(MatviewConfigs.withoutMatviewKeys(streamsConfiguration));
    this.clientId = applicationId() + "-matview-peers";
    this.timeoutMs = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
  }

  /** The Kafka Streams application's id. */
  String applicationId() {
    return this.config.getString(StreamsConfig.APPLICATION_ID_CONFIG);
  }

  /** The cluster's bootstrap servers, as one comma-separated list. */
  String bootstrapServers() {
    return String.join(",", this.config.getList(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
  }

  /** The replication factor Kafka Streams gives its internal topics, or the broker's default. */
  Optional<Short> replicationFactor() {
    int factor = this.config.getInt(StreamsConfig.REPLICATION_FACTOR_CONFIG);
    return factor > 0 ? Optional.of((short) factor) : Optional.empty();
  }

  /** A new admin client. */
  Admin admin() {
    return Admin.create(adminConfigs());
  }

  /** A new consumer of byte arrays that belongs to no group and commits nothing. */
  KafkaConsumer<byte[], byte[]> consumer() {
    return new KafkaConsumer<>(
        consumerConfigs(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /** A new producer of byte arrays that waits for every replica. */
  KafkaProducer<byte[], byte[]> producer() {
    return new KafkaProducer<>(
        producerConfigs(), new ByteArraySerializer(), new ByteArraySerializer());
  }

  Map<String, Object> adminConfigs() {
    Map<String, Object> admin = this.config.getAdminConfigs(this.clientId);
    admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, this.timeoutMs);
    admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, this.timeoutMs);
    return admin;
  }

  Map<String, Object> consumerConfigs() {
    Map<String, Object> consumer = this.config.getGlobalConsumerConfigs(this.clientId);
    consumer.remove(ConsumerConfig.GROUP_ID_CONFIG);
    consumer.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumer.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, this.timeoutMs);
    consumer.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, this.timeoutMs);
    return consumer;
  }

  Map<String, Object> producerConfigs() {
    Map<String, Object> producer = this.config.getProducerConfigs(this.clientId);
    producer.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
    producer.put(ProducerConfig.ACKS_CONFIG, "all");
    producer.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    producer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (long) this.timeoutMs);
    producer.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, this.timeoutMs);
    producer.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, this.timeoutMs);
    return producer;
  }
}
