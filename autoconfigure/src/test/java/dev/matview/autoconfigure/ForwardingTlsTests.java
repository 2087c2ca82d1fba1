package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.mock.env.MockEnvironment;

/** Lookups are forwarded over TLS exactly when the app's own server uses TLS. */
class ForwardingTlsTests {

  private final DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();

  @Test
  void forwardsOverPlainHttpWhenTheServerHasNoTls() {
    assertThat(
            ForwardingTls.sslContext(
                new MockEnvironment(), null, this.beanFactory.getBeanProvider(SslBundles.class)))
        .isNull();
  }

  @Test
  void forwardsOverTlsWhenTheServerUsesTls() {
    MockEnvironment environment =
        new MockEnvironment().withProperty("server.ssl.key-store", "classpath:server.p12");
    assertThat(
            ForwardingTls.sslContext(
                environment, null, this.beanFactory.getBeanProvider(SslBundles.class)))
        .isNotNull();
  }

  @Test
  void forwardsOverPlainHttpWhenTheServersTlsIsDisabled() {
    MockEnvironment environment =
        new MockEnvironment()
            .withProperty("server.ssl.key-store", "classpath:server.p12")
            .withProperty("server.ssl.enabled", "false");
    assertThat(
            ForwardingTls.sslContext(
                environment, null, this.beanFactory.getBeanProvider(SslBundles.class)))
        .isNull();
  }
}
