package dev.matview.autoconfigure;

import dev.matview.check.StartupChecks;
import dev.matview.query.routing.LocalInstance;
import dev.matview.startup.StartupSummary;
import dev.matview.topology.ViewRegistry;
import java.time.Duration;
import java.util.function.Supplier;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/** What runs as Kafka Streams starts: topic checks, repartition topics, start-up summary. */
@Configuration(proxyBeanMethods = false)
final class MatviewStartupConfiguration {

  /** How long creating repartition topics waits when the checks' timeout is not positive. */
  private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  @Bean
  @ConditionalOnMissingBean
  StartupSummary matviewStartupSummary(
      ViewRegistry registry,
      BeanFactory beanFactory,
      LocalInstance localInstance,
      MatviewProperties properties,
      Environment environment) {
    Supplier<StreamsBuilderFactoryBean> factoryBean =
        MatviewAutoConfiguration.factoryBeanLookup(beanFactory);
    return new StartupSummary(
        registry,
        () -> factoryBean.get().getKafkaStreams(),
        () -> LookupBaseUrl.of(localInstance.hostInfo(), properties.getWeb(), environment));
  }

  /** Hears each change of state after the replica directory, which comes first. */
  @Bean
  @ConditionalOnMissingBean(name = "matviewStartupSummaryContributor")
  StateListenerContributor matviewStartupSummaryContributor(StartupSummary summary) {
    return new StateListenerContributor(summary, Ordered.HIGHEST_PRECEDENCE + 1);
  }

  /** Creates the re-keyed views' repartition topics before Kafka Streams starts. */
  @Bean
  @ConditionalOnMissingBean
  RepartitionTopicsLifecycle matviewRepartitionTopicsLifecycle(
      BeanFactory beanFactory, ViewRegistry registry, MatviewProperties properties) {
    Duration timeout = properties.getStartupChecks().getTimeout();
    return new RepartitionTopicsLifecycle(
        MatviewAutoConfiguration.factoryBeanLookup(beanFactory),
        registry,
        (timeout.isZero() || timeout.isNegative()) ? DEFAULT_TIMEOUT : timeout);
  }

  /** Checks the views' topics on the broker before Kafka Streams starts. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBooleanProperty(name = "matview.startup-checks.enabled", matchIfMissing = true)
  static class StartupChecksConfiguration {

    @Bean
    @ConditionalOnMissingBean
    StartupChecks matviewStartupChecks(ViewRegistry registry, MatviewProperties properties) {
      Duration timeout = properties.getStartupChecks().getTimeout();
      return new StartupChecks(
          registry,
          InvalidMatviewPropertyException.requirePositive(
              "matview.startup-checks.timeout", timeout, "30s"));
    }

    @Bean
    @ConditionalOnMissingBean
    StartupChecksLifecycle matviewStartupChecksLifecycle(
        BeanFactory beanFactory, StartupChecks checks) {
      return new StartupChecksLifecycle(
          MatviewAutoConfiguration.factoryBeanLookup(beanFactory), checks);
    }
  }

  /** Sets application.server from the web server's actual port. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication
  @ConditionalOnClass(WebServerInitializedEvent.class)
  static class ApplicationServerConfiguration {

    @Bean
    ApplicationServerInitializer matviewApplicationServerInitializer(
        @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
            StreamsBuilderFactoryBean factoryBean,
        LocalInstance localInstance,
        MatviewProperties properties) {
      return new ApplicationServerInitializer(
          factoryBean, localInstance, properties.getAdvertisedHost());
    }
  }
}
