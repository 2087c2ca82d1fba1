package dev.matview.autoconfigure;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/** Creates Kafka's own clients and keeps the configuration each was created with. */
final class RecordingClientSupplier implements KafkaClientSupplier {

  final Map<String, Map<String, Object>> configs = new ConcurrentHashMap<>();

  @Override
  public Admin getAdmin(Map<String, Object> config) {
    this.configs.put("admin", config);
    return Admin.create(config);
  }

  @Override
  public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
    this.configs.put("producer", config);
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  @Override
  public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
    this.configs.put("consumer", config);
    return consumer(config);
  }

  @Override
  public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
    this.configs.put("restore consumer", config);
    return consumer(config);
  }

  @Override
  public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
    this.configs.put("global consumer", config);
    return consumer(config);
  }

  private static Consumer<byte[], byte[]> consumer(Map<String, Object> config) {
    return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }
}
