package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

/** Tests for {@link MatviewProperties}: defaults, binding and validation at start-up. */
class MatviewPropertiesTests {

  private final ApplicationContextRunner contextRunner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  MatviewAutoConfiguration.class,
                  MatviewDeadLetterAutoConfiguration.class,
                  MatviewHealthAutoConfiguration.class,
                  KafkaAutoConfiguration.class))
          .withUserConfiguration(ViewConfiguration.class)
          .withPropertyValues(
              "spring.kafka.streams.application-id=matview-test",
              "spring.kafka.streams.auto-startup=false",
              "spring.kafka.admin.auto-create=false");

  @Test
  void bindsDefaults() {
    this.contextRunner.run(
        (context) -> {
          MatviewProperties properties = context.getBean(MatviewProperties.class);
          assertThat(properties.getAdvertisedHost()).isNull();
          assertThat(properties.getWeb().isEnabled()).isTrue();
          assertThat(properties.getWeb().getBasePath()).isEqualTo("/views");
          assertThat(properties.getRocksdb().isBounded()).isTrue();
          assertThat(properties.getRocksdb().getTotalMemory()).isEqualTo(DataSize.ofMegabytes(256));
          assertThat(properties.getRocksdb().getWriteBufferRatio()).isEqualTo(0.25);
          assertThat(properties.getRocksdb().isStrictLimit()).isFalse();
          assertThat(properties.getInstanceId()).isNull();
          assertThat(properties.getStandbyReplicas()).isNull();
          assertThat(properties.isLeaveGroupOnClose()).isTrue();
          assertThat(properties.getStartupChecks().isEnabled()).isTrue();
          assertThat(properties.getStartupChecks().getTimeout()).isEqualTo(Duration.ofSeconds(30));
          assertThat(properties.getDeadLetter().isEnabled()).isTrue();
          assertThat(properties.getDeadLetter().getTopic()).isNull();
          assertThat(properties.getDeadLetter().getMaxSize()).isEqualTo(DataSize.ofMegabytes(1));
          assertThat(properties.getDeadLetter().isLateRecords()).isTrue();
          assertThat(properties.getRecords().getMaxDecimalPrecision()).isEqualTo(38);
          assertThat(properties.getRecords().getMaxDecimalScale()).isEqualTo(18);
          assertThat(properties.getRecords().getMaxEventTimeAhead())
              .isEqualTo(Duration.ofMinutes(1));
          assertThat(properties.getHealth().getMaxRestoreLag()).isZero();
          assertThat(properties.getPeers().getDownTime()).isEqualTo(Duration.ofSeconds(2));
          assertThat(properties.getHealth().getMinFreeDisk()).isEqualTo(DataSize.ofGigabytes(1));
          assertThat(properties.getDashboard().isEnabled()).isTrue();
          assertThat(properties.getChanges().getHistorySize()).isEqualTo(DataSize.ofMegabytes(1));
          assertThat(properties.getChanges().getHistoryLinger()).isEqualTo(Duration.ofSeconds(30));
          assertThat(properties.getLogging().getKafka())
              .isEqualTo(MatviewProperties.KafkaLogging.QUIET);
        });
  }

  @Test
  void bindsWebRequestLimitDefaults() {
    this.contextRunner.run(
        (context) -> {
          MatviewProperties.Web web = context.getBean(MatviewProperties.class).getWeb();
          assertThat(web.getMaxBatchBody()).isEqualTo(DataSize.ofMegabytes(2));
          assertThat(web.getMaxKeyLength()).isEqualTo(DataSize.ofKilobytes(1));
          assertThat(web.isServerProblemDetails()).isTrue();
        });
  }

  @Test
  void bindsCustomValues() {
    this.contextRunner
        .withPropertyValues(
            "matview.advertised-host=matview-1.internal",
            "matview.web.enabled=false",
            "matview.web.base-path=/api/views",
            "matview.rocksdb.bounded=false",
            "matview.rocksdb.total-memory=1GB",
            "matview.rocksdb.write-buffer-ratio=0.5",
            "matview.rocksdb.strict-limit=true",
            "matview.instance-id=orders-1",
            "matview.standby-replicas=1",
            "matview.leave-group-on-close=false",
            "matview.startup-checks.enabled=false",
            "matview.startup-checks.timeout=5s",
            "matview.dead-letter.enabled=false",
            "matview.dead-letter.topic=sales-dead-letters",
            "matview.dead-letter.max-size=512KB",
            "matview.dead-letter.late-records=false",
            "matview.records.max-decimal-precision=20",
            "matview.records.max-decimal-scale=4",
            "matview.records.max-event-time-ahead=5m",
            "matview.health.max-restore-lag=5000",
            "matview.health.min-free-disk=20GB",
            "matview.dashboard.enabled=false",
            "matview.changes.history-size=256KB",
            "matview.changes.history-linger=0s")
        .run(
            (context) -> {
              MatviewProperties properties = context.getBean(MatviewProperties.class);
              assertThat(properties.getAdvertisedHost()).isEqualTo("matview-1.internal");
              assertThat(properties.getWeb().isEnabled()).isFalse();
              assertThat(properties.getWeb().getBasePath()).isEqualTo("/api/views");
              assertThat(properties.getRocksdb().isBounded()).isFalse();
              assertThat(properties.getRocksdb().getTotalMemory())
                  .isEqualTo(DataSize.ofGigabytes(1));
              assertThat(properties.getRocksdb().getWriteBufferRatio()).isEqualTo(0.5);
              assertThat(properties.getRocksdb().isStrictLimit()).isTrue();
              assertThat(properties.getInstanceId()).isEqualTo("orders-1");
              assertThat(properties.getStandbyReplicas()).isEqualTo(1);
              assertThat(properties.isLeaveGroupOnClose()).isFalse();
              assertThat(properties.getStartupChecks().isEnabled()).isFalse();
              assertThat(properties.getStartupChecks().getTimeout())
                  .isEqualTo(Duration.ofSeconds(5));
              assertThat(properties.getDeadLetter().isEnabled()).isFalse();
              assertThat(properties.getDeadLetter().getTopic()).isEqualTo("sales-dead-letters");
              assertThat(properties.getDeadLetter().getMaxSize())
                  .isEqualTo(DataSize.ofKilobytes(512));
              assertThat(properties.getDeadLetter().isLateRecords()).isFalse();
              assertThat(properties.getRecords().getMaxDecimalPrecision()).isEqualTo(20);
              assertThat(properties.getRecords().getMaxDecimalScale()).isEqualTo(4);
              assertThat(properties.getRecords().getMaxEventTimeAhead())
                  .isEqualTo(Duration.ofMinutes(5));
              assertThat(properties.getHealth().getMaxRestoreLag()).isEqualTo(5000);
              assertThat(properties.getHealth().getMinFreeDisk())
                  .isEqualTo(DataSize.ofGigabytes(20));
              assertThat(properties.getDashboard().isEnabled()).isFalse();
              assertThat(properties.getChanges().getHistorySize())
                  .isEqualTo(DataSize.ofKilobytes(256));
              assertThat(properties.getChanges().getHistoryLinger()).isZero();
            });
  }

  @Test
  void failsWhenMaxRestoreLagIsNegative() {
    assertRefused(
        "matview.health.max-restore-lag=-1", "matview.health.max-restore-lag", "at least 0");
  }

  @Test
  void failsWhenThePeersDownTimeIsNegative() {
    assertRefused("matview.peers.down-time=-1s", "matview.peers.down-time");
  }

  @Test
  void failsWhenMinFreeDiskIsNegative() {
    assertRefused(
        "matview.health.min-free-disk=-1MB",
        "matview.health.min-free-disk",
        "at least 0 (0 turns the check off)");
  }

  @Test
  void acceptsAMinFreeDiskOfZero() {
    this.contextRunner
        .withPropertyValues("matview.health.min-free-disk=0")
        .run((context) -> assertThat(context).hasNotFailed());
  }

  @Test
  void bindsTotalMemoryInBytesWhenNoUnitIsGiven() {
    this.contextRunner
        .withPropertyValues("matview.rocksdb.total-memory=1048576")
        .run(
            (context) ->
                assertThat(context.getBean(MatviewProperties.class).getRocksdb().getTotalMemory())
                    .isEqualTo(DataSize.ofMegabytes(1)));
  }

  @Test
  void acceptsAWriteBufferRatioOfOne() {
    this.contextRunner
        .withPropertyValues("matview.rocksdb.write-buffer-ratio=1")
        .run((context) -> assertThat(context).hasNotFailed());
  }

  @Test
  void failsWhenWriteBufferRatioIsAboveOne() {
    assertRefused(
        "matview.rocksdb.write-buffer-ratio=1.5",
        "matview.rocksdb.write-buffer-ratio",
        "1.5",
        "greater than 0 and at most 1");
  }

  @Test
  void failsWhenWriteBufferRatioIsZero() {
    assertRefused("matview.rocksdb.write-buffer-ratio=0", "matview.rocksdb.write-buffer-ratio");
  }

  @Test
  void failsWhenTotalMemoryIsZero() {
    assertRefused(
        "matview.rocksdb.total-memory=0", "matview.rocksdb.total-memory", "must be positive");
  }

  @Test
  void failsWhenTotalMemoryIsNegative() {
    assertRefused("matview.rocksdb.total-memory=-1MB", "matview.rocksdb.total-memory");
  }

  @Test
  void failsWhenTotalMemoryIsNotADataSize() {
    this.contextRunner
        .withPropertyValues("matview.rocksdb.total-memory=lots")
        .run(
            (context) -> {
              assertThat(context).hasFailed();
              BindException bindFailure = cause(context.getStartupFailure(), BindException.class);
              assertThat(bindFailure.getProperty().getName())
                  .hasToString("matview.rocksdb.total-memory");
              assertThat(bindFailure).hasMessageContaining("matview.rocksdb.total-memory");
            });
  }

  @Test
  void failsWhenTheDeadLetterTopicIsNoLegalTopicName() {
    assertRefused(
        "matview.dead-letter.topic=dead letters",
        "matview.dead-letter.topic",
        "dead letters",
        "1 to 249 characters");
  }

  @Test
  void failsWhenTheDeadLetterTopicIsOneThatAViewReads() {
    assertRefused(
        "matview.dead-letter.topic=sales",
        "matview.dead-letter.topic",
        "View 'sales-per-shop' reads this topic",
        "matview-test-dlq");
  }

  @Test
  void acceptsAnyTopicWhenDeadLettersAreDisabled() {
    this.contextRunner
        .withPropertyValues("matview.dead-letter.enabled=false", "matview.dead-letter.topic=sales")
        .run((context) -> assertThat(context).hasNotFailed());
  }

  private static <T extends Throwable> T cause(Throwable failure, Class<T> type) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return type.cast(cause);
      }
    }
    throw new AssertionError("No " + type.getName() + " in the causes of " + failure, failure);
  }

  record Sale(String shop, long amount) {}

  /** Asserts that the context fails at start-up on {@code setting}, with all of {@code told}. */
  private void assertRefused(String setting, String... told) {
    this.contextRunner
        .withPropertyValues(setting)
        .run(
            (context) -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                  .hasMessageContainingAll(told);
            });
  }

  @Configuration(proxyBeanMethods = false)
  static class ViewConfiguration {

    @MaterializedView("sales-per-shop")
    ViewDefinition<String, Sale, Long> salesPerShop() {
      return Views.from("sales", Sale.class).groupBy(String.class, Sale::shop).count();
    }
  }
}
