package dev.matview.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KraftBrokerTests {

  private static final String TOPIC = "orders";

  @TempDir Path dataDir;

  @Test
  void servesClientsAndKeepsDataAcrossRestarts() throws Exception {
    int port;
    String clusterId;
    try (KraftBroker server = new KraftBroker(0, this.dataDir)) {
      server.start();
      port = server.port();
      assertThat(port).isPositive();
      assertThat(server.bootstrapServers()).isEqualTo("127.0.0.1:" + port);
      assertThat(server.logDir()).isEqualTo(this.dataDir.toAbsolutePath());
      try (Admin admin = admin(server)) {
        admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
        clusterId = admin.describeCluster().clusterId().get();
      }
      try (KafkaProducer<String, String> producer = producer(server)) {
        producer.send(new ProducerRecord<>(TOPIC, "order-1", "created")).get();
      }
      assertThat(readAll(server)).containsExactly("order-1=created");
    }
    try (KraftBroker server = new KraftBroker(port, this.dataDir)) {
      server.start();
      assertThat(server.port()).isEqualTo(port);
      try (Admin admin = admin(server)) {
        assertThat(admin.listTopics().names().get()).contains(TOPIC);
        assertThat(admin.describeCluster().clusterId().get()).isEqualTo(clusterId);
      }
      assertThat(readAll(server)).containsExactly("order-1=created");
    }
  }

  @Test
  void takesSettingsOverItsOwn() throws Exception {
    try (KraftBroker server =
        new KraftBroker(0, 0, this.dataDir, Map.of("auto.create.topics.enable", "false"))) {
      server.start();
      try (Admin admin = admin(server)) {
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
        Config config = admin.describeConfigs(List.of(broker)).all().get().get(broker);
        assertThat(config.get("auto.create.topics.enable").value()).isEqualTo("false");
        assertThat(config.get("num.partitions").value()).isEqualTo("1");
      }
    }
  }

  @Test
  void refusesASecondBrokerOfItsLogDirBeforeTouchingItsFiles() throws Exception {
    try (KraftBroker first = new KraftBroker(0, this.dataDir)) {
      first.start();
      try (KraftBroker second = new KraftBroker(0, this.dataDir)) {
        assertThatIllegalStateException()
            .isThrownBy(second::start)
            .withMessage(
                "Another Kafka broker uses the log dir "
                    + this.dataDir.toAbsolutePath()
                    + " (it holds "
                    + this.dataDir.toAbsolutePath().resolve(".matview-broker.lock")
                    + ")");
      }
      try (Admin admin = admin(first)) {
        admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
      }
      try (KafkaProducer<String, String> producer = producer(first)) {
        producer.send(new ProducerRecord<>(TOPIC, "order-1", "created")).get();
      }
      assertThat(readAll(first)).containsExactly("order-1=created");
    }
    try (KraftBroker again = new KraftBroker(0, this.dataDir)) {
      again.start();
      assertThat(readAll(again)).containsExactly("order-1=created");
    }
  }

  @Test
  void closeIsIdempotent() {
    KraftBroker server = new KraftBroker(0, this.dataDir);
    server.close();
    server.close();
  }

  private static Admin admin(KraftBroker server) {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, server.bootstrapServers()));
  }

  private static KafkaProducer<String, String> producer(KraftBroker server) {
    return new KafkaProducer<>(
        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, server.bootstrapServers()),
        new StringSerializer(),
        new StringSerializer());
  }

  private static List<String> readAll(KraftBroker server) {
    Map<String, Object> config =
        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, server.bootstrapServers());
    TopicPartition partition = new TopicPartition(TOPIC, 0);
    List<String> records = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long end = consumer.endOffsets(List.of(partition)).get(partition);
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (consumer.position(partition) < end && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          records.add(record.key() + "=" + record.value());
        }
      }
    }
    return records;
  }
}
