package dev.matview.peer;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;

/**
 * Agrees on the secret the instances of one application share, through a single-partition compacted
 * topic: each instance reads it from the start; when it is empty, the instance writes a random
 * 256-bit secret under a key of its own; then every instance uses the record at the lowest offset,
 * so instances that start at once agree. Uses one short-lived admin, consumer and producer,
 * configured as Kafka Streams configures its own clients.
 */
public final class SecretAgreement {

  private static final Log logger = LogFactory.getLog(SecretAgreement.class);

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
   * other instances; throws {@link PeerSecretException} when the broker refuses, fails or does not
   * answer in time.
   */
  public PeerSecret agree(Properties streamsConfiguration) {
    AgreementClients clients = new AgreementClients(streamsConfiguration, this.timeout);
    String applicationId = clients.applicationId();
    String topic = topic(applicationId);
    SecretTopic secretTopic = new SecretTopic(topic);
    AgreementDeadline deadline = AgreementDeadline.after(this.timeout);
    String step = "describe";
    try (Admin admin = clients.admin()) {
      if (!secretTopic.exists(admin, deadline)) {
        step = "create";
        secretTopic.create(admin, clients.replicationFactor(), deadline);
      }
      try (KafkaConsumer<byte[], byte[]> consumer = clients.consumer()) {
        consumer.assign(List.of(secretTopic.partition()));
        step = "read";
        byte[] agreed = secretTopic.first(consumer, deadline);
        if (agreed == null) {
          step = "write";
          try (KafkaProducer<byte[], byte[]> producer = clients.producer()) {
            secretTopic.write(producer, deadline);
          }
          step = "read";
          agreed = secretTopic.first(consumer, deadline);
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
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw PeerSecretException.unreachable(topic, clients.bootstrapServers(), this.timeout, ex);
    } catch (TimeoutException | ExecutionException | KafkaException ex) {
      throw failure(topic, step, clients.bootstrapServers(), ex);
    }
  }

  /**
   * What {@code thrown} at {@code step}, or the failure an {@link ExecutionException} holds, says.
   */
  private PeerSecretException failure(
      String topic, String step, String bootstrapServers, Exception thrown) {
    Throwable cause =
        (thrown instanceof ExecutionException && thrown.getCause() != null)
            ? thrown.getCause()
            : thrown;
    if (cause instanceof AuthorizationException || cause instanceof AuthenticationException) {
      return PeerSecretException.refused(topic, step, cause);
    }
    if (thrown instanceof TimeoutException
        || cause instanceof org.apache.kafka.common.errors.TimeoutException) {
      return PeerSecretException.unreachable(topic, bootstrapServers, this.timeout, cause);
    }
    return PeerSecretException.failed(topic, cause);
  }
}
