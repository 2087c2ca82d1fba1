package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/**
 * Every {@code matview.*} property (and the few Kafka Streams settings Matview reads) set to a
 * value Matview cannot work with, to no property at all, or to text that is no value of its type,
 * fails start-up with a report that names the property and says what to set instead.
 */
@ExtendWith(OutputCaptureExtension.class)
class PropertyMisuseTests {

  private final WebApplicationContextRunner contextRunner =
      new WebApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  MatviewDeclarationsAutoConfiguration.class,
                  MatviewAutoConfiguration.class,
                  MatviewWebAutoConfiguration.class,
                  MatviewHealthAutoConfiguration.class,
                  MatviewDeadLetterAutoConfiguration.class,
                  KafkaAutoConfiguration.class,
                  ApplicationAvailabilityAutoConfiguration.class))
          .withUserConfiguration(ViewConfiguration.class)
          .withPropertyValues(
              "spring.kafka.streams.application-id=matview-test",
              "spring.kafka.streams.auto-startup=false",
              "matview.startup-checks.enabled=false",
              "spring.kafka.admin.auto-create=false",
              "matview.peers.secret=" + "s".repeat(32));

  static Stream<Arguments> mistakes() {
    return Stream.of(
        mistake("matview.web.max-page-size=0", "Set matview.web.max-page-size to 1 or more"),
        mistake("matview.web.max-batch-size=0", "Set matview.web.max-batch-size to 1 or more"),
        mistake("matview.web.max-batch-body=0B", "Set matview.web.max-batch-body to 1B or more"),
        mistake("matview.web.max-key-length=0B", "Set matview.web.max-key-length between 1B"),
        mistake("matview.web.base-path=views", "Set matview.web.base-path to a path such as"),
        mistake("matview.rocksdb.total-memory=0B", "Set matview.rocksdb.total-memory to more"),
        mistake("matview.rocksdb.write-buffer-ratio=1.5", "Set matview.rocksdb.write-buffer-ratio"),
        mistake("matview.health.max-restore-lag=-1", "Set matview.health.max-restore-lag to zero"),
        mistake("matview.health.min-free-disk=-1GB", "Set matview.health.min-free-disk to zero"),
        mistake(
            "matview.records.max-decimal-precision=0",
            "Set matview.records.max-decimal-precision between 1 and 1000"),
        mistake(
            "matview.records.max-decimal-scale=40",
            "Set matview.records.max-decimal-scale between 0 and matview.records.max-decimal-precision (38)"),
        mistake(
            "matview.records.max-event-time-ahead=-1s",
            "Set matview.records.max-event-time-ahead to zero"),
        mistake(
            "matview.lookups.retry-within=11s",
            "Set matview.lookups.retry-within between 0 and 10s"),
        mistake("matview.standby-reads.max-lag=-1", "Set matview.standby-reads.max-lag to zero"),
        mistake(
            "matview.startup-checks.timeout=0s",
            "Set matview.startup-checks.timeout to more",
            "matview.startup-checks.enabled=true"),
        mistake("matview.consistency.max-wait=2m", "Set matview.consistency.max-wait between 0"),
        mistake("matview.peers.secret=short", "Set matview.peers.secret to a secret of at least"),
        mistake("matview.peers.signature-validity=0s", "Set matview.peers.signature-validity to"),
        mistake("matview.peers.agreement-timeout=0s", "Set matview.peers.agreement-timeout to"),
        mistake("matview.forwarding.timeout=0s", "Set matview.forwarding.timeout to more"),
        mistake("matview.peers.down-time=-1s", "Set matview.peers.down-time to zero"),
        mistake(
            "matview.dead-letter.topic=dead letters", "Set matview.dead-letter.topic to 1 to 249"),
        mistake(
            "matview.dead-letter.topic=sales", "Set matview.dead-letter.topic to another topic"),
        mistake(
            "matview.dead-letter.max-size=1KB", "Set matview.dead-letter.max-size between 32KB"),
        mistake("matview.changes.heartbeat=10ms", "Set matview.changes.heartbeat to 100ms or more"),
        mistake("matview.changes.history=1000", "Remove matview.changes.history and set"),
        mistake("matview.changes.history-size=0B", "Set matview.changes.history-size to 1B"),
        mistake("matview.changes.history-linger=-1s", "Set matview.changes.history-linger to zero"),
        mistake("matview.changes.max-streams=0", "Set matview.changes.max-streams to 1 or more"),
        mistake("matview.changes.buffer=0", "Set matview.changes.buffer to 1 or more"),
        mistake("matview.standby-replicas=-1", "Set matview.standby-replicas to zero or more"),
        mistake("matview.instance-id=orders 1", "Set matview.instance-id to such a name"),
        mistake(
            "matview.advertised-host=http://orders-1:8080",
            "Set matview.advertised-host to the host alone"),
        mistake(
            "spring.kafka.streams.properties.topic.max.message.bytes=lots",
            "Set spring.kafka.streams.properties.topic.max.message.bytes to a number of bytes"),
        mistake(
            "matview.web.max-page-sise=5", "Rename it to matview.web.max-page-size, or remove it"),
        mistake(
            "matview.forwarding.timeout=2 seconds",
            "Set matview.forwarding.timeout to a duration, for example 500ms"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mistakes")
  void failsStartUpNamingThePropertyAndWhatToSetInstead(
      String setting, String action, String[] also) {
    String property = setting.substring(0, setting.indexOf('='));
    this.contextRunner
        .withPropertyValues(also)
        .withPropertyValues(setting)
        .run(
            (context) -> {
              assertThat(context).hasFailed();
              FailureAnalysis analysis =
                  new MatviewFailureAnalyzer(null).analyze(context.getStartupFailure());
              assertThat(analysis)
                  .as("the analysis of %s", context.getStartupFailure())
                  .isNotNull();
              assertThat(analysis.getDescription()).contains("'" + property + "'");
              assertThat(analysis.getAction()).startsWith(action);
            });
  }

  @Test
  void acceptsEverySpellingOfAPropertyThatSpringBootBinds() {
    this.contextRunner
        .withPropertyValues("matview.web.maxPageSize=10", "matview.web.max_batch_size=20")
        .run(
            (context) -> {
              assertThat(context).hasNotFailed();
              MatviewProperties.Web web = context.getBean(MatviewProperties.class).getWeb();
              assertThat(web.getMaxPageSize()).isEqualTo(10);
              assertThat(web.getMaxBatchSize()).isEqualTo(20);
            });
  }

  @Test
  void leavesThePropertiesOfAnOptionalModuleThatIsNotOnTheClassPathAlone() {
    this.contextRunner
        .withPropertyValues(
            "matview.dev-broker.enabled=true", "matview.client.base-url=http://orders:8080")
        .run((context) -> assertThat(context).hasNotFailed());
    this.contextRunner
        .withPropertyValues("matview.dev-brokers.enabled=true")
        .run((context) -> assertThat(context).hasFailed());
  }

  @Test
  void printsTheReportWithWhereTheValueComesFrom(CapturedOutput output) {
    SpringApplication application = new SpringApplication(UnknownPropertyApplication.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    assertThat(application)
        .satisfies(
            (app) ->
                org.assertj.core.api.Assertions.assertThatException()
                    .isThrownBy(
                        () ->
                            app.run(
                                "--spring.main.banner-mode=off",
                                "--matview.records.max-decimal-scal=4")));
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains(
            "Invalid value '4' for configuration property 'matview.records.max-decimal-scal':"
                + " Matview has no property of that name, so the setting would do nothing.")
        .contains("The value comes from \"matview.records.max-decimal-scal\" from property source")
        .contains("Rename it to matview.records.max-decimal-scale, or remove it.");
  }

  private static Arguments mistake(String setting, String action, String... also) {
    return Arguments.of(setting, action, also);
  }

  record Sale(String shop) {}

  @Configuration(proxyBeanMethods = false)
  static class ViewConfiguration {

    @MaterializedView("sales-per-shop")
    ViewDefinition<String, Sale, Long> salesPerShop() {
      return Views.from("sales", Sale.class).groupBy(String.class, Sale::shop).count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration(MatviewDeclarationsAutoConfiguration.class)
  static class UnknownPropertyApplication {}
}
