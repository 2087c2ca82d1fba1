package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.mock;

import dev.matview.disk.StateDirSpace;
import dev.matview.disk.StoreDiskUsage;
import dev.matview.health.AvailabilityUpdater;
import dev.matview.health.DiskPressure;
import dev.matview.health.MatviewHealthIndicator;
import dev.matview.health.RestoreLagTracker;
import dev.matview.health.StreamsHealth;
import dev.matview.kafka.CompositeStandbyUpdateListener;
import dev.matview.kafka.CompositeStateRestoreListener;
import dev.matview.kafka.StreamsListeners;
import dev.matview.replica.StoreHandles;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.nio.file.Path;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
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
  void callsTheTrackerThenTheListenerSetOnKafkaStreamsThenRestoreListenerBeans() {
    this.contextRunner
        .withUserConfiguration(UserRestoreListenerConfiguration.class)
        .run(
            (context) -> {
              StateRestoreListener bean =
                  context.getBean(UserRestoreListenerConfiguration.class).listener;
              StateRestoreListener set = mock(StateRestoreListener.class);
              CompositeStateRestoreListener installed = listeners(context).restore(set);
              assertThat(installed.listeners())
                  .containsExactly(
                      context.getBean(RestoreLagTracker.class),
                      context.getBean(StoreHandles.class),
                      set,
                      bean);
              installed.onRestoreStart(CHANGELOG, "sales", 0, 10);
              then(set).should().onRestoreStart(CHANGELOG, "sales", 0, 10);
              then(bean).should().onRestoreStart(CHANGELOG, "sales", 0, 10);
              assertThat(context.getBean(RestoreLagTracker.class).lag("sales", 0))
                  .hasValueSatisfying((lag) -> assertThat(lag.lag()).isEqualTo(10));
            });
  }

  @Test
  void callsTheTrackerThenTheListenerSetOnKafkaStreamsThenStandbyListenerBeans() {
    this.contextRunner
        .withUserConfiguration(UserStandbyListenerConfiguration.class)
        .run(
            (context) -> {
              StandbyUpdateListener bean =
                  context.getBean(UserStandbyListenerConfiguration.class).listener;
              StandbyUpdateListener set = mock(StandbyUpdateListener.class);
              CompositeStandbyUpdateListener installed = listeners(context).standby(set);
              assertThat(installed.listeners())
                  .containsExactly(
                      context.getBean(RestoreLagTracker.class),
                      context.getBean(StoreHandles.class),
                      set,
                      bean);
              installed.onBatchLoaded(CHANGELOG, "sales", new TaskId(0, 0), 9, 10, 19);
              then(set).should().onBatchLoaded(CHANGELOG, "sales", new TaskId(0, 0), 9, 10, 19);
              then(bean).should().onBatchLoaded(CHANGELOG, "sales", new TaskId(0, 0), 9, 10, 19);
            });
  }

  @Test
  void installsTheTrackerAndListenerBeansWhenNoListenerIsSetOnKafkaStreams() {
    this.contextRunner
        .withUserConfiguration(UserStandbyListenerConfiguration.class)
        .run(
            (context) ->
                assertThat(listeners(context).standby(null).listeners())
                    .containsExactly(
                        context.getBean(RestoreLagTracker.class),
                        context.getBean(StoreHandles.class),
                        context.getBean(UserStandbyListenerConfiguration.class).listener));
  }

  private static StreamsListeners listeners(AssertableApplicationContext context) {
    return context.getBean(MatviewKafkaStreamsConfigurer.class).customizer().listeners();
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
  static class UserRestoreListenerConfiguration {

    final StateRestoreListener listener = mock(StateRestoreListener.class);

    @Bean
    StateRestoreListener userRestoreListener() {
      return this.listener;
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
