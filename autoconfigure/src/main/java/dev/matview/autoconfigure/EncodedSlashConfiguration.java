package dev.matview.autoconfigure;

import org.apache.catalina.startup.Tomcat;
import org.eclipse.jetty.server.Server;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.jetty.ConfigurableJettyWebServerFactory;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Lets an encoded slash ({@code %2F}) through to the application, on Tomcat and on Jetty, which
 * refuse it by default, so a key holding a {@code /} can be asked in the path; Matview reads a key
 * from the raw path, so it never becomes a path separator.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "matview.web.encoded-slashes", matchIfMissing = true)
class EncodedSlashConfiguration {

  /** On Tomcat: its connectors pass the escape through instead of refusing it. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({Tomcat.class, ConfigurableTomcatWebServerFactory.class})
  static class TomcatEncodedSlashes {

    @Bean
    WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> matviewTomcatEncodedSlashes() {
      return (factory) -> factory.addConnectorCustomizers(EncodedSlashes::passThrough);
    }
  }

  /** On Jetty: its URI compliance accepts the escape, and its servlets read such a path. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({Server.class, ConfigurableJettyWebServerFactory.class})
  static class JettyEncodedSlashes {

    @Bean
    WebServerFactoryCustomizer<ConfigurableJettyWebServerFactory> matviewJettyEncodedSlashes() {
      return (factory) -> factory.addServerCustomizers(JettyServerCustomizers.encodedSlashes());
    }
  }
}
