package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.topology.InvalidViewException;
import dev.matview.view.Aggregation;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** Tests that {@link MatviewAutoConfiguration} refuses to start with views that cannot work. */
class InvalidViewDefinitionTests {

  private final ApplicationContextRunner contextRunner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(MatviewAutoConfiguration.class, KafkaAutoConfiguration.class))
          .withPropertyValues(
              "spring.kafka.streams.application-id=matview-test",
              "spring.kafka.streams.auto-startup=false");

  @Test
  void failsWhenAViewHasNoSourceTopic() {
    this.contextRunner
        .withUserConfiguration(NoSourceTopicConfiguration.class)
        .run(
            (context) ->
                assertFailedWith(
                    context,
                    "Invalid materialized view 'no-topic'",
                    "it has no source topic",
                    "Views.from(\"topic\", ValueType.class)"));
  }

  @Test
  void failsWhenAWindowsRetentionIsShorterThanItsSizePlusGrace() {
    this.contextRunner
        .withUserConfiguration(ShortRetentionConfiguration.class)
        .run(
            (context) ->
                assertFailedWith(
                    context,
                    "Invalid materialized view 'short-retention'",
                    "retention PT30M is shorter than its size plus grace (PT1H10M)",
                    "withRetention(PT1H10M)"));
  }

  @Test
  void failsWhenAViewGroupsByAnUnsupportedKeyType() {
    this.contextRunner
        .withUserConfiguration(UnsupportedKeyTypeConfiguration.class)
        .run(
            (context) ->
                assertFailedWith(
                    context,
                    "Invalid materialized view 'by-date'",
                    "key type java.util.Date is not supported",
                    "use String, Long, Integer, UUID or a Java record"));
  }

  @Test
  void failsWhenASourceKeyTypeIsUnsupported() {
    this.contextRunner
        .withUserConfiguration(UnsupportedSourceKeyTypeConfiguration.class)
        .run(
            (context) ->
                assertFailedWith(
                    context,
                    "Invalid materialized view 'by-price'",
                    "source key type java.lang.Double is not supported",
                    "use String, Long, Integer, UUID or a Java record"));
  }

  @Test
  void failsWhenTwoViewsHaveTheSameName() {
    this.contextRunner
        .withUserConfiguration(DuplicateNameConfiguration.class)
        .run(
            (context) ->
                assertFailedWith(
                    context,
                    "Invalid materialized view 'sales'",
                    "beans 'salesPerShop' and 'salesTotal' both declare it",
                    "give each @MaterializedView a distinct name"));
  }

  @Test
  void failsWhenASessionWindowHasAnAggregationThatCannotMerge() {
    this.contextRunner
        .withUserConfiguration(NonMergeableSessionConfiguration.class)
        .run(
            (context) ->
                assertFailedWith(
                    context,
                    "Invalid materialized view 'sessions'",
                    "a session window merges sessions",
                    "implement MergeableAggregation instead of Aggregation"));
  }

  @Test
  void failsWhenAViewNameIsIllegal() {
    this.contextRunner
        .withUserConfiguration(IllegalNameConfiguration.class)
        .run(
            (context) ->
                assertFailedWith(
                    context,
                    "Invalid materialized view 'sales per shop'",
                    "letters, digits, '.', '_' or '-'",
                    "rename it in @MaterializedView"));
  }

  @Test
  void failsWhenViewsOfOneTopicReadDifferentKeyTypes() {
    this.contextRunner
        .withUserConfiguration(ConflictingSourceKeyTypesConfiguration.class)
        .run(
            (context) ->
                assertFailedWith(
                    context,
                    "Invalid materialized view 'sales-by-id'",
                    "reads topic 'sales' with record keys of type Long but another view reads"
                        + " them as String",
                    "views of one topic must use the same key type"));
  }

  @Test
  void acceptsARecordAsKeyType() {
    this.contextRunner
        .withUserConfiguration(RecordKeyConfiguration.class)
        .run((context) -> assertThat(context).hasNotFailed());
  }

  private static void assertFailedWith(AssertableApplicationContext context, String... parts) {
    assertThat(context).hasFailed();
    assertThat(context.getStartupFailure())
        .rootCause()
        .isInstanceOf(InvalidViewException.class)
        .hasMessageContainingAll(parts);
    FailureAnalysis analysis =
        new MatviewFailureAnalyzer(null).analyze(context.getStartupFailure());
    assertThat(analysis.getDescription())
        .contains("of method InvalidViewDefinitionTests.")
        .contains(parts[1]);
    assertThat(analysis.getAction()).contains(parts[2]);
  }

  record Sale(String shop, long amount, double price, Date day, Instant at) {}

  record ShopDay(String shop, Date day) {}

  @Configuration(proxyBeanMethods = false)
  static class NoSourceTopicConfiguration {

    @MaterializedView("no-topic")
    ViewDefinition<String, Sale, Long> noTopic() {
      return Views.from("", Sale.class).count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class ShortRetentionConfiguration {

    @MaterializedView("short-retention")
    ViewDefinition<String, Sale, Long> shortRetention() {
      return Views.from("sales", Sale.class)
          .windowedBy(
              ViewWindow.tumbling(Duration.ofHours(1))
                  .withGrace(Duration.ofMinutes(10))
                  .withRetention(Duration.ofMinutes(30)))
          .count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UnsupportedKeyTypeConfiguration {

    @MaterializedView("by-date")
    ViewDefinition<Date, Sale, Long> byDate() {
      return Views.from("sales", Sale.class).groupBy(Date.class, Sale::day).count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UnsupportedSourceKeyTypeConfiguration {

    @MaterializedView("by-price")
    ViewDefinition<Double, Sale, Long> byPrice() {
      return Views.from("prices", Double.class, Sale.class).count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class DuplicateNameConfiguration {

    @MaterializedView("sales")
    ViewDefinition<String, Sale, Long> salesPerShop() {
      return Views.from("sales", Sale.class).groupBy(String.class, Sale::shop).count();
    }

    @MaterializedView("sales")
    ViewDefinition<String, Sale, Long> salesTotal() {
      return Views.from("sales", Sale.class).sum(Sale::amount);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class NonMergeableSessionConfiguration {

    @MaterializedView("sessions")
    ViewDefinition<String, Sale, Long> sessions() {
      return Views.from("sales", Sale.class)
          .windowedBy(ViewWindow.session(Duration.ofMinutes(5)))
          .aggregate(Long.class, new CountWithoutMerge());
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class IllegalNameConfiguration {

    @MaterializedView("sales per shop")
    ViewDefinition<String, Sale, Long> salesPerShop() {
      return Views.from("sales", Sale.class).groupBy(String.class, Sale::shop).count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class ConflictingSourceKeyTypesConfiguration {

    @MaterializedView("sales-by-shop")
    ViewDefinition<String, Sale, Long> salesByShop() {
      return Views.from("sales", Sale.class).count();
    }

    @MaterializedView("sales-by-id")
    ViewDefinition<Long, Sale, Long> salesById() {
      return Views.from("sales", Long.class, Sale.class).count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class RecordKeyConfiguration {

    @MaterializedView("sales-per-shop-and-day")
    ViewDefinition<ShopDay, Sale, Long> salesPerShopAndDay() {
      return Views.from("sales", Sale.class)
          .groupBy(ShopDay.class, (sale) -> new ShopDay(sale.shop(), sale.day()))
          .count();
    }
  }

  static class CountWithoutMerge implements Aggregation<String, Sale, Long> {

    @Override
    public Long initial() {
      return 0L;
    }

    @Override
    public Long add(String key, Sale value, @Nullable Long aggregate) {
      return (aggregate != null ? aggregate : 0L) + 1;
    }
  }
}
