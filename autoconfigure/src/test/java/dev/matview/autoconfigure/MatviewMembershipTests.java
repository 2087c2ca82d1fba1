package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.test.util.ReflectionTestUtils;

/**
 * Tests that {@link MatviewAutoConfiguration} makes each instance a static member of the Kafka
 * Streams group that leaves it on a clean shutdown, with the standby replicas asked for.
 */
class MatviewMembershipTests {

  private final ApplicationContextRunner contextRunner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(MatviewAutoConfiguration.class, KafkaAutoConfiguration.class))
          .withUserConfiguration(ViewConfiguration.class)
          .withPropertyValues(
              "spring.kafka.streams.application-id=matview-test",
              "spring.kafka.streams.auto-startup=false");

  @Test
  void derivesTheGroupInstanceIdFromTheAdvertisedHostAndTheStateDir() {
    this.contextRunner
        .withPropertyValues(
            "matview.advertised-host=matview-1.internal",
            "spring.kafka.streams.state-dir=/var/lib/matview/streams")
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .containsEntry(
                        "group.instance.id", "matview-1.internal-var-lib-matview-streams"));
  }

  @Test
  void derivesTheGroupInstanceIdFromTheAbsolutePathOfARelativeStateDir() {
    this.contextRunner
        .withPropertyValues(
            "matview.advertised-host=matview-1.internal",
            "spring.kafka.streams.state-dir=data/kafka-streams")
        .run(
            (context) ->
                assertThat(streamsConfiguration(context).getProperty("group.instance.id"))
                    .startsWith("matview-1.internal-")
                    .endsWith("-data-kafka-streams")
                    .hasSizeGreaterThan("matview-1.internal-data-kafka-streams".length()));
  }

  @Test
  void takesTheHostOfAConfiguredApplicationServerForTheGroupInstanceId() {
    this.contextRunner
        .withPropertyValues(
            "spring.kafka.streams.properties.application.server=streams-1.internal:9000",
            "spring.kafka.streams.state-dir=/var/lib/matview")
        .run(
            (context) ->
                assertThat(streamsConfiguration(context).getProperty("group.instance.id"))
                    .startsWith("streams-1.internal-")
                    .endsWith("var-lib-matview"));
  }

  @Test
  void usesTheConfiguredInstanceId() {
    this.contextRunner
        .withPropertyValues("matview.instance-id=orders-1")
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .containsEntry("group.instance.id", "orders-1"));
  }

  @Test
  void keepsAGroupInstanceIdSetInTheStreamsProperties() {
    this.contextRunner
        .withPropertyValues("spring.kafka.streams.properties.group.instance.id=streams-1")
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .containsEntry("group.instance.id", "streams-1"));
  }

  @Test
  void usesNoStaticMembershipWithTheStreamsRebalanceProtocol() {
    this.contextRunner
        .withPropertyValues("spring.kafka.streams.properties.group.protocol=streams")
        .run(
            (context) ->
                assertThat(streamsConfiguration(context)).doesNotContainKey("group.instance.id"));
  }

  @Test
  void failsWhenTheInstanceIdHasCharactersKafkaRefuses() {
    this.contextRunner
        .withPropertyValues("matview.instance-id=orders:1")
        .run(
            (context) ->
                assertInvalid(context, "matview.instance-id", "letters, digits, '.', '_' and '-'"));
  }

  @Test
  void failsWhenTwoDifferentInstanceIdsAreConfigured() {
    this.contextRunner
        .withPropertyValues(
            "matview.instance-id=orders-1",
            "spring.kafka.streams.properties.group.instance.id=streams-1")
        .run(
            (context) ->
                assertInvalid(
                    context,
                    "matview.instance-id",
                    "spring.kafka.streams.properties.group.instance.id, which is streams-1"));
  }

  @Test
  void leavesKafkaStreamsDefaultNumberOfStandbysUnlessAsked() {
    this.contextRunner.run(
        (context) ->
            assertThat(streamsConfiguration(context))
                .doesNotContainKey(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG));
  }

  @Test
  void setsTheNumberOfStandbyReplicasFromTheShortcut() {
    this.contextRunner
        .withPropertyValues("matview.standby-replicas=1")
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .containsEntry(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "1"));
  }

  @Test
  void keepsTheNumberOfStandbyReplicasOfTheStreamsProperties() {
    this.contextRunner
        .withPropertyValues("spring.kafka.streams.properties.num.standby.replicas=2")
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .containsEntry(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "2"));
  }

  @Test
  void failsWhenTheShortcutAndTheStreamsPropertiesAskForDifferentStandbys() {
    this.contextRunner
        .withPropertyValues(
            "matview.standby-replicas=1", "spring.kafka.streams.properties.num.standby.replicas=2")
        .run(
            (context) ->
                assertInvalid(
                    context,
                    "matview.standby-replicas",
                    "spring.kafka.streams.properties.num.standby.replicas, which is 2"));
  }

  @Test
  void failsWhenTheNumberOfStandbyReplicasIsNegative() {
    this.contextRunner
        .withPropertyValues("matview.standby-replicas=-1")
        .run((context) -> assertInvalid(context, "matview.standby-replicas", "zero or more"));
  }

  @Test
  void leavesTheGroupOnCloseByDefault() {
    this.contextRunner.run(
        (context) ->
            assertThat(ReflectionTestUtils.getField(factoryBean(context), "leaveGroupOnClose"))
                .isEqualTo(true));
  }

  @Test
  void staysInTheGroupOnCloseWhenAsked() {
    this.contextRunner
        .withPropertyValues("matview.leave-group-on-close=false")
        .run(
            (context) ->
                assertThat(ReflectionTestUtils.getField(factoryBean(context), "leaveGroupOnClose"))
                    .isEqualTo(false));
  }

  private static void assertInvalid(
      AssertableApplicationContext context, String property, String reason) {
    assertThat(context).hasFailed();
    assertThat(context.getStartupFailure())
        .rootCause()
        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
        .hasMessageContaining(property)
        .hasMessageContaining(reason);
  }

  private static StreamsBuilderFactoryBean factoryBean(AssertableApplicationContext context) {
    return context.getBean(
        "&" + KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME,
        StreamsBuilderFactoryBean.class);
  }

  private static Properties streamsConfiguration(AssertableApplicationContext context) {
    Properties configuration = factoryBean(context).getStreamsConfiguration();
    assertThat(configuration).isNotNull();
    return configuration;
  }

  record Sale(String shop) {}

  @Configuration(proxyBeanMethods = false)
  static class ViewConfiguration {

    @MaterializedView("sales-per-shop")
    ViewDefinition<String, Sale, Long> salesPerShop() {
      return Views.from("sales", Sale.class).count();
    }
  }
}
