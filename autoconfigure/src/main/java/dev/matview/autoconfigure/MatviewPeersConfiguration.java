package dev.matview.autoconfigure;

import dev.matview.execution.MatviewExecutors;
import dev.matview.peer.PeerRequests;
import dev.matview.peer.PeerSecret;
import dev.matview.peer.PeerTrust;
import dev.matview.peer.SecretAgreement;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.peer.PeerMarks;
import dev.matview.query.routing.ReplicaDirectory;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/** Trust between the instances, the client that forwards to them, and marks of those down. */
@Configuration(proxyBeanMethods = false)
final class MatviewPeersConfiguration {

  @Bean
  @ConditionalOnMissingBean
  PeerTrust matviewPeerTrust(MatviewProperties properties) {
    String secret = properties.getPeers().getSecret();
    if (secret == null) {
      return PeerTrust.pending();
    }
    try {
      return PeerTrust.of(PeerSecret.of(secret));
    } catch (IllegalArgumentException ex) {
      throw new InvalidMatviewPropertyException(
          "matview.peers.secret",
          "(hidden)",
          "it has "
              + secret.getBytes(StandardCharsets.UTF_8).length
              + " bytes and needs at least "
              + PeerSecret.MIN_BYTES,
          "Set matview.peers.secret to a secret of at least "
              + PeerSecret.MIN_BYTES
              + " bytes, the same on every instance, for example the output of"
              + " 'openssl rand -base64 32'");
    }
  }

  @Bean
  @ConditionalOnMissingBean
  PeerRequests matviewPeerRequests(PeerTrust trust, MatviewProperties properties) {
    Duration validity =
        InvalidMatviewPropertyException.requirePositive(
            "matview.peers.signature-validity",
            properties.getPeers().getSignatureValidity(),
            "30s");
    return new PeerRequests(trust, Clock.systemUTC(), validity);
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewPeerSecretEstablisher")
  PeerSecretEstablisher matviewPeerSecretEstablisher(
      PeerTrust trust, MatviewProperties properties) {
    Duration timeout =
        InvalidMatviewPropertyException.requirePositive(
            "matview.peers.agreement-timeout", properties.getPeers().getAgreementTimeout(), "30s");
    return new PeerSecretEstablisher(trust, new SecretAgreement(timeout));
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewPeerSecretLifecycle")
  PeerSecretLifecycle matviewPeerSecretLifecycle(
      PeerSecretEstablisher establisher, BeanFactory beanFactory) {
    return new PeerSecretLifecycle(
        establisher, MatviewAutoConfiguration.factoryBeanLookup(beanFactory));
  }

  @Bean
  @ConditionalOnMissingBean
  PeerClient matviewPeerClient(
      MatviewProperties properties,
      Environment environment,
      ObjectProvider<SslBundles> bundles,
      PeerRequests peerRequests,
      MatviewExecutors executors) {
    MatviewProperties.Forwarding forwarding = properties.getForwarding();
    Duration timeout =
        InvalidMatviewPropertyException.requirePositive(
            "matview.forwarding.timeout", forwarding.getTimeout(), "2s");
    return new PeerClient(
        LookupBaseUrl.path(properties.getWeb(), environment),
        timeout,
        ForwardingTls.sslContext(environment, forwarding.getSslBundle(), bundles),
        peerRequests,
        forwarding.isTrustedNetwork(),
        executors.peerIoThreads());
  }

  @Bean
  @ConditionalOnMissingBean
  PeerMarks matviewPeerMarks(MatviewProperties properties, ReplicaDirectory directory) {
    Duration downTime =
        InvalidMatviewPropertyException.requireNotNegative(
            "matview.peers.down-time", properties.getPeers().getDownTime(), "2s");
    return new PeerMarks(downTime, directory::names);
  }

  /** Keeps the peers' secret out of the env and configprops endpoints, whatever they show. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(SanitizingFunction.class)
  static class PeerSecretSanitizingConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "matviewPeerSecretSanitizer")
    SanitizingFunction matviewPeerSecretSanitizer() {
      return SanitizingFunction.sanitizeValue()
          .ifKeyMatches(
              (key) ->
                  key.toLowerCase(Locale.ROOT)
                      .replace('_', '.')
                      .replace("-", "")
                      .equals("matview.peers.secret"));
    }
  }
}
