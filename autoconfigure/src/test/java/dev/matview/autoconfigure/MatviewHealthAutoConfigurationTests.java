package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.mock;

import dev.matview.disk.StateDirSpace;
import dev.matview.disk.StoreDiskUsage;
import dev.matview.health.AvailabilityUpdater;
import dev.matview.health.CompositeStandbyUpdateListener;
import dev.matview.health.CompositeStateRestoreListener;
import dev.matview.health.DiskPressure;
import dev.matview.health.MatviewHealthIndicator;
import dev.matview.health.RestoreLagTracker;
import dev.matview.health.StreamsHealth;
import dev.matview.replica.StoreHandles;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.KafkaStreamsCustomizer;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;
import org.springframework.util.unit.DataSize;

/** Tests for {@link MatviewHealthAutoConfiguration}. */
class MatviewHealthAutoConfigurationTests {

  private static final TopicPartition CHANGELOG = new TopicPartition("app-sales-changelog", 0);

  private final ApplicationContextRunner contextRunner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  MatviewAutoConfiguration.class,
                  MatviewHealthAutoConfiguration.class,
                  KafkaAutoConfiguration.class,
                  ApplicationAvailabilityAutoConfiguration.class))
          .withUserConfiguration(ViewConfiguration.class)
          .withPropertyValues(
              "spring.kafka.streams.application-id=matview-test",
              "spring.kafka.streams.auto-startup=false");

  @Test
  void providesTheTrackerTheHealthComponentAndTheAvailabilityUpdater() {
    this.contextRunner.run(
        (context) -> {
          assertThat(context).hasSingleBean(RestoreLagTracker.class);
          assertThat(context).hasSingleBean(StreamsHealth.class);
          assertThat(context).hasSingleBean(AvailabilityUpdater.class);
          assertThat(context)
              .getBean("matviewHealthIndicator")
              .isInstanceOf(MatviewHealthIndicator.class);
        });
  }

  @Test
  void watchesTheFreeSpaceOfTheConfiguredStateDirAgainstTheBound() {
    Path stateDir = Path.of(System.getProperty("java.io.tmpdir"), "matview-health-test");
    this.contextRunner
        .withPropertyValues(
            "spring.kafka.streams.state-dir=" + stateDir, "matview.health.min-free-disk=5GB")
        .run(
            (context) -> {
              assertThat(context.getBean(StateDirSpace.class).stateDir()).isEqualTo(stateDir);
              assertThat(context.getBean(DiskPressure.class).minFreeBytes())
                  .isEqualTo(DataSize.ofGigabytes(5).toBytes());
              assertThat(context).hasSingleBean(StoreDiskUsage.class);
            });
  }

  @Test
  void watchesKafkaStreamsDefaultStateDirWhenNoneIsConfigured() {
    this.contextRunner.run(
        (context) -> {
          assertThat(context.getBean(StateDirSpace.class).stateDir())
              .isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "kafka-streams"));
          assertThat(context.getBean(DiskPressure.class).minFreeBytes())
              .isEqualTo(DataSize.ofGigabytes(1).toBytes());
          assertThat(context.getBean(StoreDiskUsage.class).bytesByStore()).isEmpty();
        });
  }

  @Test
  void backsOffWithoutViews() {
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                MatviewAutoConfiguration.class,
                MatviewHealthAutoConfiguration.class,
                KafkaAutoConfiguration.class))
        .withPropertyValues("spring.kafka.streams.application-id=matview-test")
        .run((context) -> assertThat(context).doesNotHaveBean(RestoreLagTracker.class));
  }

  @Test
  void backsOffFromTheHealthComponentWithoutBootsHealthSupport() {
    this.contextRunner
        .withClassLoader(new FilteredClassLoader(HealthIndicator.class))
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(RestoreLagTracker.class);
              assertThat(context).doesNotHaveBean(MatviewHealthIndicator.class);
            });
  }

  @Test
  void backsOffFromTheHealthComponentWhenItIsDisabled() {
    this.contextRunner
        .withPropertyValues("management.health.matview.enabled=false")
        .run((context) -> assertThat(context).doesNotHaveBean(MatviewHealthIndicator.class));
  }

  @Test
  void backsOffWhenTheUserDefinesATracker() {
    this.contextRunner
        .withUserConfiguration(UserTrackerConfiguration.class)
        .run(
            (context) ->
                assertThat(context.getBean(RestoreLagTracker.class))
                    .isSameAs(context.getBean(UserTrackerConfiguration.class).tracker));
  }

  @Test
  void callsTheTrackerThenTheConfigurersListenerThenListenerBeans() {
    this.contextRunner
        .withUserConfiguration(UserRestoreListenersConfiguration.class)
        .run(
            (context) -> {
              UserRestoreListenersConfiguration user =
                  context.getBean(UserRestoreListenersConfiguration.class);
              StateRestoreListener installed =
                  FactoryBeanSettings.stateRestoreListener(factoryBean(context));
              assertThat(installed).isInstanceOf(CompositeStateRestoreListener.class);
              assertThat(((CompositeStateRestoreListener) installed).listeners())
                  .containsExactly(
                      context.getBean(RestoreLagTracker.class),
                      context.getBean(StoreHandles.class),
                      user.configured,
                      user.bean);
              installed.onRestoreStart(CHANGELOG, "sales", 0, 10);
              then(user.configured).should().onRestoreStart(CHANGELOG, "sales", 0, 10);
              then(user.bean).should().onRestoreStart(CHANGELOG, "sales", 0, 10);
              assertThat(context.getBean(RestoreLagTracker.class).lag("sales", 0))
                  .hasValueSatisfying((lag) -> assertThat(lag.lag()).isEqualTo(10));
            });
  }

  @Test
  void setsTheStandbyListenerThroughTheCustomizerThatWasThereBefore() {
    this.contextRunner
        .withUserConfiguration(UserCustomizerConfiguration.class)
        .withPropertyValues("matview.peers.secret=" + "s".repeat(32))
        .run(
            (context) -> {
              KafkaStreamsCustomizer user =
                  context.getBean(UserCustomizerConfiguration.class).customizer;
              KafkaStreamsCustomizer installed =
                  FactoryBeanSettings.kafkaStreamsCustomizer(factoryBean(context));
              assertThat(installed).isInstanceOf(StandbyListenerCustomizer.class);
              KafkaStreams kafkaStreams = mock(KafkaStreams.class);
              Topology topology = new Topology();
              Properties properties = new Properties();
              KafkaClientSupplier clients = mock(KafkaClientSupplier.class);
              installed.initKafkaStreams(topology, properties, clients);
              then(user).should().initKafkaStreams(topology, properties, clients);
              installed.customize(kafkaStreams);
              then(user).should().customize(kafkaStreams);
              then(kafkaStreams)
                  .should()
                  .setStandbyUpdateListener(any(CompositeStandbyUpdateListener.class));
            });
  }

  @Test
  void callsTheTrackerThenStandbyListenerBeansOnStandbyUpdates() {
    this.contextRunner
        .withUserConfiguration(UserStandbyListenerConfiguration.class)
        .run(
            (context) -> {
              KafkaStreams kafkaStreams = mock(KafkaStreams.class);
              FactoryBeanSettings.kafkaStreamsCustomizer(factoryBean(context))
                  .customize(kafkaStreams);
              ArgumentCaptor<StandbyUpdateListener> installed =
                  ArgumentCaptor.forClass(StandbyUpdateListener.class);
              then(kafkaStreams).should().setStandbyUpdateListener(installed.capture());
              StandbyUpdateListener user =
                  context.getBean(UserStandbyListenerConfiguration.class).listener;
              installed.getValue().onBatchLoaded(CHANGELOG, "sales", new TaskId(0, 0), 9, 10, 19);
              then(user).should().onBatchLoaded(CHANGELOG, "sales", new TaskId(0, 0), 9, 10, 19);
              assertThat(((CompositeStandbyUpdateListener) installed.getValue()).listeners())
                  .containsExactly(
                      context.getBean(RestoreLagTracker.class),
                      context.getBean(StoreHandles.class),
                      user);
            });
  }

  @Test
  void readsWhatTheFactoryBeansSettersSet() {
    StreamsBuilderFactoryBean factoryBean = new StreamsBuilderFactoryBean();
    assertThat(FactoryBeanSettings.stateRestoreListener(factoryBean)).isNull();
    StateRestoreListener listener = mock(StateRestoreListener.class);
    factoryBean.setStateRestoreListener(listener);
    assertThat(FactoryBeanSettings.stateRestoreListener(factoryBean)).isSameAs(listener);
    KafkaStreamsCustomizer customizer = mock(KafkaStreamsCustomizer.class);
    factoryBean.setKafkaStreamsCustomizer(customizer);
    assertThat(FactoryBeanSettings.kafkaStreamsCustomizer(factoryBean)).isSameAs(customizer);
  }

  private static StreamsBuilderFactoryBean factoryBean(AssertableApplicationContext context) {
    return context.getBean(
        "&" + KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME,
        StreamsBuilderFactoryBean.class);
  }

  record Sale(String shop) {}

  @Configuration(proxyBeanMethods = false)
  static class ViewConfiguration {

    @MaterializedView("sales")
    ViewDefinition<String, Sale, Long> sales() {
      return Views.from("sales", Sale.class).count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserTrackerConfiguration {

    final RestoreLagTracker tracker = new RestoreLagTracker();

    @Bean
    RestoreLagTracker userTracker() {
      return this.tracker;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserRestoreListenersConfiguration {

    final StateRestoreListener configured = mock(StateRestoreListener.class);

    final StateRestoreListener bean = mock(StateRestoreListener.class);

    @Bean
    @Order(1)
    StateRestoreListener userRestoreListener() {
      return this.bean;
    }

    @Bean
    StreamsBuilderFactoryBeanConfigurer userRestoreListenerConfigurer() {
      return (factoryBean) -> factoryBean.setStateRestoreListener(this.configured);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserCustomizerConfiguration {

    final KafkaStreamsCustomizer customizer = mock(KafkaStreamsCustomizer.class);

    @Bean
    StreamsBuilderFactoryBeanConfigurer userCustomizerConfigurer() {
      return (factoryBean) -> factoryBean.setKafkaStreamsCustomizer(this.customizer);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserStandbyListenerConfiguration {

    final StandbyUpdateListener listener = mock(StandbyUpdateListener.class);

    @Bean
    StandbyUpdateListener userStandbyListener() {
      return this.listener;
    }
  }
}
