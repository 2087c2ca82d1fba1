package dev.matview.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads back every order the {@code orders} topic holds: the ground truth of the views. */
final class OrdersTopic {

  private OrdersTopic() {}

  /** Every committed record of the topic, from its first offset to its end. */
  static List<Order> readAll(String bootstrapServers, int partitions) {
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false,
            ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
            5000);
    List<Order> orders = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> all = new ArrayList<>();
      for (int partition = 0; partition < partitions; partition++) {
        all.add(new TopicPartition(OrderLoad.TOPIC, partition));
      }
      consumer.assign(all);
      consumer.seekToBeginning(all);
      Map<TopicPartition, Long> ends = consumer.endOffsets(all, Duration.ofMinutes(1));
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (!all.stream().allMatch(tp -> consumer.position(tp) >= ends.get(tp))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "Could not read the orders topic to its end in 2 minutes");
        }
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofSeconds(1))) {
          orders.add(Order.fromJson(ViewReader.JSON.readTree(record.value())));
        }
      }
    }
    return orders;
  }
}
