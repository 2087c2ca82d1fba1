package dev.matview.peer;

import dev.matview.kafka.MatviewConfigs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.jspecify.annotations.Nullable;

/**
 * Agrees on the secret the instances of one application share, through a single-partition compacted
 * topic: each instance reads it from the start; when it is empty, the instance writes a random
 * 256-bit secret under a key of its own; then every instance uses the record at the lowest offset,
 * so instances that start at once agree. Uses one short-lived admin, consumer and producer,
 * configured as Kafka Streams configures its own clients.
 */
public final class SecretAgreement {

  private static final Log logger = LogFactory.getLog(SecretAgreement.class);

  private static final byte VERSION = 1;

  private final Duration timeout;

  /** An agreement that waits at most {@code timeout} for the broker in all. */
  public SecretAgreement(Duration timeout) {
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("The timeout must be positive, was " + timeout);
    }
    this.timeout = timeout;
  }

  /** The topic through which the instances of {@code applicationId} agree on their secret. */
  public static String topic(String applicationId) {
    return applicationId + "-matview-peers";
  }

  /**
   * The secret of the application that {@code streamsConfiguration} configures, agreed with the
   * other instances.
   *
   * @throws PeerSecretException when the broker refuses, fails or does not answer in time
   */
  public PeerSecret agree(Properties streamsConfiguration) {
    QuietStreamsConfig config =
        new QuietStreamsConfig(MatviewConfigs.withoutMatviewKeys(streamsConfiguration));
    String applicationId = config.getString(StreamsConfig.APPLICATION_ID_CONFIG);
    String topic = topic(applicationId);
    String bootstrapServers =
        String.join(",", config.getList(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
    String clientId = applicationId + "-matview-peers";
    long deadline = System.nanoTime() + this.timeout.toNanos();
    String step = "describe";
    try (Admin admin = Admin.create(admin(config, clientId))) {
      if (!exists(admin, topic, deadline)) {
        step = "create";
        create(admin, topic, replicationFactor(config), deadline);
      }
      TopicPartition partition = new TopicPartition(topic, 0);
      try (KafkaConsumer<byte[], byte[]> consumer =
          new KafkaConsumer<>(
              consumer(config, clientId),
              new ByteArrayDeserializer(),
              new ByteArrayDeserializer())) {
        consumer.assign(List.of(partition));
        step = "read";
        byte[] agreed = first(consumer, partition, deadline);
        if (agreed == null) {
          step = "write";
          write(config, clientId, topic, deadline);
          step = "read";
          agreed = first(consumer, partition, deadline);
        }
        if (agreed == null) {
          throw PeerSecretException.failed(
              topic, new IllegalStateException("the secret written could not be read back"));
        }
        if (logger.isInfoEnabled()) {
          logger.info("The instances of '" + applicationId + "' share the secret in " + topic);
        }
        return PeerSecret.of(agreed);
      }
    } catch (AuthorizationException | AuthenticationException ex) {
      throw PeerSecretException.refused(topic, step, ex);
    } catch (TimeoutException | org.apache.kafka.common.errors.TimeoutException ex) {
      throw PeerSecretException.unreachable(topic, bootstrapServers, this.timeout, ex);
    } catch (ExecutionException ex) {
      Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
      if (cause instanceof AuthorizationException || cause instanceof AuthenticationException) {
        throw PeerSecretException.refused(topic, step, cause);
      }
      if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
        throw PeerSecretException.unreachable(topic, bootstrapServers, this.timeout, cause);
      }
      throw PeerSecretException.failed(topic, cause);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw PeerSecretException.unreachable(topic, bootstrapServers, this.timeout, ex);
    } catch (KafkaException ex) {
      throw PeerSecretException.failed(topic, ex);
    }
  }

  private static boolean exists(Admin admin, String topic, long deadline)
      throws ExecutionException, TimeoutException, InterruptedException {
    try {
      admin
          .describeTopics(List.of(topic))
          .allTopicNames()
          .get(remaining(deadline), TimeUnit.NANOSECONDS);
      return true;
    } catch (ExecutionException ex) {
      if (ex.getCause() instanceof UnknownTopicOrPartitionException) {
        return false;
      }
      throw ex;
    }
  }

  private static void create(
      Admin admin, String topic, Optional<Short> replicationFactor, long deadline)
      throws ExecutionException, TimeoutException, InterruptedException {
    NewTopic newTopic =
        new NewTopic(topic, Optional.of(1), replicationFactor)
            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
    try {
      admin.createTopics(List.of(newTopic)).all().get(remaining(deadline), TimeUnit.NANOSECONDS);
    } catch (ExecutionException ex) {
      if (!(ex.getCause() instanceof TopicExistsException)) {
        throw ex;
      }
    }
  }

  /** The secret at the lowest offset of the topic, or {@code null} when it holds none. */
  private static byte @Nullable [] first(
      KafkaConsumer<byte[], byte[]> consumer, TopicPartition partition, long deadline)
      throws TimeoutException {
    consumer.seekToBeginning(List.of(partition));
    Long endOffset =
        consumer
            .endOffsets(List.of(partition), Duration.ofNanos(remaining(deadline)))
            .get(partition);
    long end = endOffset != null ? endOffset : 0;
    while (consumer.position(partition, Duration.ofNanos(remaining(deadline))) < end) {
      for (ConsumerRecord<byte[], byte[]> record :
          consumer.poll(Duration.ofNanos(Math.min(remaining(deadline), 500_000_000L)))) {
        byte[] value = record.value();
        if (value != null && value.length == 1 + PeerSecret.MIN_BYTES && value[0] == VERSION) {
          return Arrays.copyOfRange(value, 1, value.length);
        }
      }
      if (remaining(deadline) <= 0) {
        throw new TimeoutException("The topic was not read to its end in time");
      }
    }
    return null;
  }

  private void write(QuietStreamsConfig config, String clientId, String topic, long deadline)
      throws ExecutionException, TimeoutException, InterruptedException {
    byte[] value = new byte[1 + PeerSecret.MIN_BYTES];
    value[0] = VERSION;
    byte[] material = PeerSecret.randomMaterial();
    System.arraycopy(material, 0, value, 1, material.length);
    byte[] key = UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8);
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            producer(config, clientId), new ByteArraySerializer(), new ByteArraySerializer())) {
      producer
          .send(new ProducerRecord<>(topic, 0, key, value))
          .get(remaining(deadline), TimeUnit.NANOSECONDS);
    }
  }

  private Map<String, Object> admin(QuietStreamsConfig config, String clientId) {
    Map<String, Object> admin = config.getAdminConfigs(clientId);
    admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs());
    admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs());
    return admin;
  }

  private Map<String, Object> consumer(QuietStreamsConfig config, String clientId) {
    Map<String, Object> consumer = config.getGlobalConsumerConfigs(clientId);
    consumer.remove(ConsumerConfig.GROUP_ID_CONFIG);
    consumer.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumer.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs());
    consumer.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs());
    return consumer;
  }

  private Map<String, Object> producer(QuietStreamsConfig config, String clientId) {
    Map<String, Object> producer = config.getProducerConfigs(clientId);
    producer.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
    producer.put(ProducerConfig.ACKS_CONFIG, "all");
    producer.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    producer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (long) timeoutMs());
    producer.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs());
    producer.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, timeoutMs());
    return producer;
  }

  private static Optional<Short> replicationFactor(QuietStreamsConfig config) {
    int factor = config.getInt(StreamsConfig.REPLICATION_FACTOR_CONFIG);
    return factor > 0 ? Optional.of((short) factor) : Optional.empty();
  }

  private int timeoutMs() {
    return (int) Math.min(Integer.MAX_VALUE, this.timeout.toMillis());
  }

  private static long remaining(long deadline) throws TimeoutException {
    long remaining = deadline - System.nanoTime();
    if (remaining <= 0) {
      throw new TimeoutException("The broker did not answer in time");
    }
    return remaining;
  }

  /** Kafka Streams' view of the configuration, without logging every value once more. */
  private static final class QuietStreamsConfig extends StreamsConfig {

    QuietStreamsConfig(Properties properties) {
      super(properties, false);
    }
  }
}
