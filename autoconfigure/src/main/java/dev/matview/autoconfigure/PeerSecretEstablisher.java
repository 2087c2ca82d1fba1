package dev.matview.autoconfigure;

import dev.matview.peer.PeerTrust;
import dev.matview.peer.SecretAgreement;
import java.util.Properties;

/**
 * Establishes the instances' shared secret once, when none is configured, by agreeing on it through
 * Kafka: {@link PeerSecretLifecycle} asks before the web server starts, when Kafka Streams starts
 * with the context, and {@link MatviewKafkaStreamsCustomizer} just before it creates each Kafka
 * Streams, whether Kafka Streams starts with the context or later.
 */
final class PeerSecretEstablisher {

  private final PeerTrust trust;

  private final SecretAgreement agreement;

  PeerSecretEstablisher(PeerTrust trust, SecretAgreement agreement) {
    this.trust = trust;
    this.agreement = agreement;
  }

  /**
   * Agrees on the secret with the other instances of the application that {@code properties}
   * configure, unless it is known already.
   */
  void agreeOnce(Properties properties) {
    synchronized (this.trust) {
      if (!this.trust.isEstablished()) {
        this.trust.establish(this.agreement.agree(properties));
      }
    }
  }
}
