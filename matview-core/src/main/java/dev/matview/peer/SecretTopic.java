package dev.matview.peer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.jspecify.annotations.Nullable;

/**
 * The single-partition compacted topic through which the instances of one application agree on
 * their secret. Each record's value is a version byte, then the secret's {@value
 * PeerSecret#MIN_BYTES} bytes; its key is random, so that compaction keeps every instance's record.
 */
final class SecretTopic {

  private static final byte VERSION = 1;

  private static final long MAX_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

  private final String name;

  /** The topic named {@code name}. */
  SecretTopic(String name) {
    this.name = name;
  }

  /** Its one partition. */
  TopicPartition partition() {
    return new TopicPartition(this.name, 0);
  }

  /** Whether it exists. */
  boolean exists(Admin admin, AgreementDeadline deadline)
      throws ExecutionException, TimeoutException, InterruptedException {
    try {
      admin
          .describeTopics(List.of(this.name))
          .allTopicNames()
          .get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (ExecutionException ex) {
      if (ex.getCause() instanceof UnknownTopicOrPartitionException) {
        return false;
      }
      throw ex;
    }
  }

  /** Creates it, compacted, with one partition; another instance may have created it first. */
  void create(Admin admin, Optional<Short> replicationFactor, AgreementDeadline deadline)
      throws ExecutionException, TimeoutException, InterruptedException {
    NewTopic topic =
        new NewTopic(this.name, Optional.of(1), replicationFactor)
            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
    try {
      admin.createTopics(List.of(topic)).all().get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException ex) {
      if (!(ex.getCause() instanceof TopicExistsException)) {
        throw ex;
      }
    }
  }

  /**
   * The secret at its lowest offset, read from the start by {@code consumer}, which is assigned its
   * {@link #partition()}, or {@code null} when it holds none.
   */
  byte @Nullable [] first(KafkaConsumer<byte[], byte[]> consumer, AgreementDeadline deadline)
      throws TimeoutException {
    TopicPartition partition = partition();
    consumer.seekToBeginning(List.of(partition));
    Long endOffset = consumer.endOffsets(List.of(partition), deadline.remaining()).get(partition);
    long end = endOffset != null ? endOffset : 0;
    while (consumer.position(partition, deadline.remaining()) < end) {
      for (ConsumerRecord<byte[], byte[]> record :
          consumer.poll(Duration.ofNanos(Math.min(deadline.remainingNanos(), MAX_POLL_NANOS)))) {
        byte[] secret = secret(record.value());
        if (secret != null) {
          return secret;
        }
      }
      if (deadline.passed()) {
        throw new TimeoutException("The topic was not read to its end in time");
      }
    }
    return null;
  }

  /** Writes a new random secret under a key of this instance's own. */
  void write(KafkaProducer<byte[], byte[]> producer, AgreementDeadline deadline)
      throws ExecutionException, TimeoutException, InterruptedException {
    byte[] key = UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8);
    producer
        .send(new ProducerRecord<>(this.name, 0, key, value(PeerSecret.randomMaterial())))
        .get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
  }

  /** The record value that holds the secret {@code material}. */
  static byte[] value(byte[] material) {
    byte[] value = new byte[1 + material.length];
    value[0] = VERSION;
    System.arraycopy(material, 0, value, 1, material.length);
    return value;
  }

  /** The secret a record {@code value} holds, or {@code null} for another version or length. */
  static byte @Nullable [] secret(byte @Nullable [] value) {
    if (value != null && value.length == 1 + PeerSecret.MIN_BYTES && value[0] == VERSION) {
      return Arrays.copyOfRange(value, 1, value.length);
    }
    return null;
  }
}
