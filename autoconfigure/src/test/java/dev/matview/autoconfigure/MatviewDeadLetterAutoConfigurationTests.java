package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.deadletter.DeadLetterDeserializationExceptionHandler;
import dev.matview.deadletter.DeadLetterListener;
import dev.matview.deadletter.DeadLetterProcessingExceptionHandler;
import dev.matview.deadletter.DeadLetterProductionExceptionHandler;
import dev.matview.deadletter.DeadLetterPublisher;
import dev.matview.deadletter.DeadLetters;
import dev.matview.metrics.DeadLetterMetrics;
import dev.matview.metrics.DroppedRecordMetrics;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Properties;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DefaultProductionExceptionHandler;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.apache.kafka.streams.errors.LogAndFailExceptionHandler;
import org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/** Tests for {@link MatviewDeadLetterAutoConfiguration}. */
class MatviewDeadLetterAutoConfigurationTests {

  private final ApplicationContextRunner contextRunner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  MatviewAutoConfiguration.class,
                  MatviewDeadLetterAutoConfiguration.class,
                  KafkaAutoConfiguration.class))
          .withPropertyValues(
              "spring.kafka.streams.application-id=matview-test",
              "spring.kafka.streams.auto-startup=false",
              "spring.kafka.admin.auto-create=false");

  @Test
  void installsTheDeadLetterHandlersAndHandsThemWhatTheyNeed() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) -> {
              Properties streams = streamsConfiguration(context);
              assertThat(streams)
                  .containsEntry(
                      StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                      DeadLetterDeserializationExceptionHandler.class.getName())
                  .containsEntry(
                      StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                      DeadLetterProcessingExceptionHandler.class.getName())
                  .containsEntry(
                      StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
                      DeadLetterProductionExceptionHandler.class.getName());
              DeadLetters deadLetters = (DeadLetters) streams.get(DeadLetters.CONFIG);
              assertThat(deadLetters.publisher())
                  .isSameAs(context.getBean(DeadLetterPublisher.class));
              assertThat(deadLetters.locator().viewsReading("sales"))
                  .containsExactly("sales-per-shop");
            });
  }

  @Test
  void namesTheDeadLetterTopicAfterTheApplicationIdAndCreatesItWithTheBrokersDefaults() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) -> {
              assertThat(context.getBean(DeadLetterPublisher.class).topic())
                  .isEqualTo("matview-test-dlq");
              NewTopic topic = context.getBean("matviewDeadLetterTopic", NewTopic.class);
              assertThat(topic.name()).isEqualTo("matview-test-dlq");
              assertThat(topic.numPartitions()).isEqualTo(-1);
              assertThat(topic.replicationFactor()).isEqualTo((short) -1);
            });
  }

  @Test
  void createsTheConfiguredTopicWithTheReplicationFactorOfKafkaStreamsTopics() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues(
            "matview.dead-letter.topic=sales-dead-letters",
            "spring.kafka.streams.replication-factor=3")
        .run(
            (context) -> {
              NewTopic topic = context.getBean("matviewDeadLetterTopic", NewTopic.class);
              assertThat(topic.name()).isEqualTo("sales-dead-letters");
              assertThat(topic.replicationFactor()).isEqualTo((short) 3);
            });
  }

  @Test
  void keepsTheUsersDeserializationExceptionHandler() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues(
            "spring.kafka.streams.properties.deserialization.exception.handler="
                + LogAndFailExceptionHandler.class.getName())
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .containsEntry(
                        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                        LogAndFailExceptionHandler.class.getName())
                    .containsEntry(
                        StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                        DeadLetterProcessingExceptionHandler.class.getName())
                    .containsKey(DeadLetters.CONFIG));
  }

  @Test
  void keepsTheUsersDeprecatedDefaultDeserializationExceptionHandler() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues(
            "spring.kafka.streams.properties.default.deserialization.exception.handler="
                + LogAndFailExceptionHandler.class.getName())
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .containsEntry(
                        "default.deserialization.exception.handler",
                        LogAndFailExceptionHandler.class.getName())
                    .doesNotContainKey(
                        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG));
  }

  @Test
  void leavesItsDeadLettersOutWhenTheUserSetAllThreeHandlers() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues(
            "spring.kafka.streams.properties.production.exception.handler="
                + DefaultProductionExceptionHandler.class.getName(),
            "spring.kafka.streams.properties.deserialization.exception.handler="
                + LogAndFailExceptionHandler.class.getName(),
            "spring.kafka.streams.properties.processing.exception.handler="
                + LogAndContinueProcessingExceptionHandler.class.getName())
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .containsEntry(
                        StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                        LogAndContinueProcessingExceptionHandler.class.getName())
                    .doesNotContainKey(DeadLetters.CONFIG));
  }

  @Test
  void installsKafkasLogAndFailHandlersAndNoTopicWhenDeadLettersAreDisabled() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues("matview.dead-letter.enabled=false")
        .run(
            (context) -> {
              assertThat(streamsConfiguration(context))
                  .containsEntry(
                      StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                      LogAndFailExceptionHandler.class.getName())
                  .containsEntry(
                      StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                      LogAndFailProcessingExceptionHandler.class.getName())
                  .doesNotContainKey(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG)
                  .doesNotContainKey(DeadLetters.CONFIG);
              assertThat(context).doesNotHaveBean(DeadLetterPublisher.class);
              assertThat(context).doesNotHaveBean(NewTopic.class);
              assertThat(context).doesNotHaveBean(DeadLetterMetrics.class);
              assertThat(context).hasSingleBean(DroppedRecordMetrics.class);
            });
  }

  @Test
  void countsDeadLettersWithMicrometer() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run((context) -> assertThat(context).hasSingleBean(DeadLetterMetrics.class));
  }

  @Test
  void capsDeadLettersAtTheProducersMaxRequestSize() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues(
            "matview.dead-letter.max-size=5MB",
            "spring.kafka.streams.properties.max.request.size=100000")
        .run(
            (context) ->
                assertThat(context.getBean(DeadLetterPublisher.class).maxBytes())
                    .isEqualTo(100000));
  }

  @Test
  void refusesADeadLetterSizeTooSmallForItsHeaders() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues("matview.dead-letter.max-size=16KB")
        .run(
            (context) ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("matview.dead-letter.max-size"));
  }

  @Test
  void countsNothingWithoutMicrometer() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withClassLoader(new FilteredClassLoader(MeterBinder.class))
        .run(
            (context) -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(DeadLetterMetrics.class);
            });
  }

  @Test
  void backsOffWhenTheUserDefinesAPublisher() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class, UserPublisherConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(DeadLetterPublisher.class);
              assertThat(context.getBean(DeadLetterPublisher.class).topic()).isEqualTo("mine");
              assertThat(context.getBean("matviewDeadLetterTopic", NewTopic.class).name())
                  .isEqualTo("mine");
            });
  }

  @Test
  void addsNothingWithoutViews() {
    this.contextRunner.run(
        (context) -> {
          assertThat(context).doesNotHaveBean(DeadLetterPublisher.class);
          assertThat(context).doesNotHaveBean(DeadLetterStreamsConfigurer.class);
        });
  }

  private static Properties streamsConfiguration(AssertableApplicationContext context) {
    Properties configuration =
        context
            .getBean(
                "&" + KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME,
                StreamsBuilderFactoryBean.class)
            .getStreamsConfiguration();
    assertThat(configuration).isNotNull();
    return configuration;
  }

  record Sale(String shop, long amount) {}

  @Configuration(proxyBeanMethods = false)
  static class SalesViewsConfiguration {

    @MaterializedView("sales-per-shop")
    ViewDefinition<String, Sale, Long> salesPerShop() {
      return Views.from("sales", Sale.class).groupBy(String.class, Sale::shop).count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserPublisherConfiguration {

    @Bean
    DeadLetterPublisher myPublisher() {
      return new DeadLetterPublisher("mine", MockProducer::new, DeadLetterListener.NONE, 1048576);
    }
  }
}
