package dev.matview.sample;

import dev.matview.broker.KraftBroker;
import java.util.Arrays;
import java.util.stream.Stream;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.ProducerFactory;

/**
 * Runs a single-node Kafka broker in this JVM, started before and stopped after every Kafka client
 * of the app.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "sample.embedded-kafka.enabled", matchIfMissing = true)
class EmbeddedKafkaConfiguration {

  private static final String BROKER_BEAN = "embeddedKafkaServer";

  @Bean(name = BROKER_BEAN, initMethod = "start", destroyMethod = "close")
  KraftBroker embeddedKafkaServer(SampleProperties properties) {
    SampleProperties.EmbeddedKafka settings = properties.embeddedKafka();
    return new KraftBroker(settings.port(), settings.dataDir());
  }

  @Bean
  static BeanFactoryPostProcessor kafkaClientsDependOnEmbeddedKafka() {
    return beanFactory ->
        clientBeans(beanFactory)
            .map(beanFactory::getBeanDefinition)
            .forEach(EmbeddedKafkaConfiguration::dependOnBroker);
  }

  private static Stream<String> clientBeans(ConfigurableListableBeanFactory beanFactory) {
    return Stream.of(KafkaAdmin.class, ProducerFactory.class, StreamsBuilderFactoryBean.class)
        .flatMap(type -> Arrays.stream(beanFactory.getBeanNamesForType(type, true, false)))
        .map(BeanFactoryUtils::transformedBeanName)
        .distinct();
  }

  private static void dependOnBroker(BeanDefinition definition) {
    String[] dependsOn = definition.getDependsOn();
    definition.setDependsOn(
        dependsOn == null
            ? new String[] {BROKER_BEAN}
            : Stream.concat(Arrays.stream(dependsOn), Stream.of(BROKER_BEAN))
                .toArray(String[]::new));
  }
}
