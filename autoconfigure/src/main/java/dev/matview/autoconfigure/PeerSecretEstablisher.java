package dev.matview.autoconfigure;

import dev.matview.peer.PeerTrust;
import dev.matview.peer.SecretAgreement;
import java.util.Properties;

/**
 * Agrees on the instances' shared secret through Kafka, once, when none is configured: before the
 * web server starts ({@link PeerSecretLifecycle}) and before each Kafka Streams is created ({@link
 * MatviewKafkaStreamsCustomizer}).
 */
final class PeerSecretEstablisher {

  private final PeerTrust trust;

  private final SecretAgreement agreement;

  PeerSecretEstablisher(PeerTrust trust, SecretAgreement agreement) {
    this.trust = trust;
    this.agreement = agreement;
  }

  /** Agrees on the secret with the instances {@code properties} configure, unless it is known. */
  void agreeOnce(Properties properties) {
    synchronized (this.trust) {
      if (!this.trust.isEstablished()) {
        this.trust.establish(this.agreement.agree(properties));
      }
    }
  }
}
