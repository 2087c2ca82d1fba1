package dev.matview.autoconfigure;

import java.security.NoSuchAlgorithmException;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.Ssl;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/** Whether lookups are forwarded over TLS, as when this app's server uses it, and its trust. */
final class ForwardingTls {

  private static final boolean WEB_SERVER_PRESENT =
      ClassUtils.isPresent("org.springframework.boot.web.server.Ssl", null);

  private ForwardingTls() {}

  static @Nullable SSLContext sslContext(
      Environment environment,
      @Nullable String forwardingBundle,
      ObjectProvider<SslBundles> bundles) {
    if (!WEB_SERVER_PRESENT) {
      return null;
    }
    Ssl ssl = Binder.get(environment).bind("server.ssl", Ssl.class).orElse(null);
    if (!Ssl.isEnabled(ssl)) {
      return null;
    }
    if (forwardingBundle != null) {
      try {
        return bundles.getObject().getBundle(forwardingBundle).createSslContext();
      } catch (NoSuchSslBundleException ex) {
        throw new InvalidMatviewPropertyException(
            "matview.forwarding.ssl-bundle",
            forwardingBundle,
            "no SSL bundle has that name",
            "Set matview.forwarding.ssl-bundle to the name of a bundle under"
                + " spring.ssl.bundle.jks or spring.ssl.bundle.pem, or remove it to trust what"
                + " server.ssl.bundle trusts");
      }
    }
    if (ssl.getBundle() != null) {
      return bundles.getObject().getBundle(ssl.getBundle()).createSslContext();
    }
    try {
      return SSLContext.getDefault();
    } catch (NoSuchAlgorithmException ex) {
      throw new IllegalStateException("The JVM offers no default TLS context", ex);
    }
  }
}
