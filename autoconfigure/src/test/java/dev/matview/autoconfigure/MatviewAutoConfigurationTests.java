package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import dev.matview.check.StartupChecks;
import dev.matview.kafka.CompositeStateListener;
import dev.matview.kafka.StreamsListeners;
import dev.matview.peer.TestPeers;
import dev.matview.query.KeyParser;
import dev.matview.query.LookupMetrics;
import dev.matview.query.ViewQueryService;
import dev.matview.query.local.LocalReplicas;
import dev.matview.query.local.LocalStores;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.routing.InstanceMemory;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.ReplicaDirectory;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.StaleReads;
import dev.matview.query.routing.StreamsRouting;
import dev.matview.rocksdb.BoundedMemoryRocksDBConfigSetter;
import dev.matview.startup.StartupSummary;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.topology.ViewTopologyBuilder;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rocksdb.Options;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.KafkaStreamsCustomizer;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;
import tools.jackson.databind.json.JsonMapper;

/** Tests for {@link MatviewAutoConfiguration}. */
@ExtendWith(OutputCaptureExtension.class)
class MatviewAutoConfigurationTests {

  private static final String APPLICATION_ID = "matview-test";

  private final ApplicationContextRunner contextRunner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(MatviewAutoConfiguration.class, KafkaAutoConfiguration.class))
          .withPropertyValues(
              "spring.kafka.streams.application-id=" + APPLICATION_ID,
              "spring.kafka.streams.auto-startup=false");

  @Test
  void configuresMatviewBeansWhenViewsAreDefined() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ViewSerdes.class);
              assertThat(context).hasSingleBean(ViewRegistry.class);
              assertThat(context).hasSingleBean(ViewTopologyBuilder.class);
              assertThat(context).hasSingleBean(LocalInstance.class);
              assertThat(context).hasSingleBean(ViewQueryService.class);
              assertThat(context).hasSingleBean(MatviewProperties.class);
              assertThat(context)
                  .getBean("&" + KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
                  .isInstanceOf(StreamsBuilderFactoryBean.class);
            });
  }

  @Test
  void registersViewsUnderTheApplicationId() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) -> {
              ViewRegistry registry = context.getBean(ViewRegistry.class);
              assertThat(registry.applicationId()).isEqualTo(APPLICATION_ID);
              assertThat(registry.all())
                  .extracting(ResolvedView::name)
                  .containsExactlyInAnyOrder("sales-per-shop", "salesTotal");
              assertThat(context.getBean(ViewQueryService.class).applicationId())
                  .isEqualTo(APPLICATION_ID);
            });
  }

  @Test
  void namesAViewByItsMaterializedViewAnnotation() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) -> {
              ViewRegistry registry = context.getBean(ViewRegistry.class);
              assertThat(registry.find("sales-per-shop")).isPresent();
              assertThat(registry.find("salesPerShop")).isEmpty();
            });
  }

  @Test
  void namesAViewByTheNameAttributeOfItsMaterializedViewAnnotation() {
    this.contextRunner
        .withUserConfiguration(NameAttributeViewConfiguration.class)
        .run(
            (context) -> {
              assertThat(context.getBean(ViewRegistry.class).all())
                  .extracting(ResolvedView::name)
                  .containsExactly("sales-per-day");
              assertThat(stores(topology(context))).containsExactly("sales-per-day");
            });
  }

  @Test
  void takesTheApplicationIdFromTheApplicationNameWhenNoneIsSet() {
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(MatviewAutoConfiguration.class, KafkaAutoConfiguration.class))
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues(
            "spring.application.name=sales-app", "spring.kafka.streams.auto-startup=false")
        .run(
            (context) -> {
              assertThat(context.getBean(ViewRegistry.class).applicationId())
                  .isEqualTo("sales-app");
              assertThat(streamsConfiguration(context))
                  .containsEntry(StreamsConfig.APPLICATION_ID_CONFIG, "sales-app");
            });
  }

  @Test
  void failsWithoutAnApplicationId() {
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(MatviewAutoConfiguration.class, KafkaAutoConfiguration.class))
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues("spring.kafka.streams.auto-startup=false")
        .run(
            (context) -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                  .hasMessageContaining("spring.kafka.streams.application-id");
            });
  }

  @Test
  void namesAViewByItsBeanNameWhenTheAnnotationHasNoName() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) ->
                assertThat(context.getBean(ViewRegistry.class).find("salesTotal")).isPresent());
  }

  @Test
  void namesAViewByItsBeanNameWhenItIsAPlainBean() {
    this.contextRunner
        .withUserConfiguration(PlainBeanViewConfiguration.class)
        .run(
            (context) ->
                assertThat(context.getBean(ViewRegistry.class).all())
                    .extracting(ResolvedView::name)
                    .containsExactly("salesPerDay"));
  }

  @Test
  void buildsAStoreNamedAfterEachView() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) ->
                assertThat(stores(topology(context)))
                    .containsExactlyInAnyOrder("sales-per-shop", "salesTotal"));
  }

  @Test
  void repartitionsARekeyedView() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) ->
                assertThat(sinkTopics(topology(context)))
                    .containsExactly("sales-per-shop-repartition"));
  }

  @Test
  void readsATopicSharedByViewsOnce() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) ->
                assertThat(sourceTopics(topology(context)))
                    .containsExactlyInAnyOrder("sales", "sales-per-shop-repartition"));
  }

  @Test
  void buildsWindowedViewsWithWindowStores() {
    this.contextRunner
        .withUserConfiguration(WindowedViewsConfiguration.class)
        .run(
            (context) ->
                assertThat(stores(topology(context)))
                    .containsExactlyInAnyOrder("sales-per-minute", "visits"));
  }

  @Test
  void doesNotStartKafkaStreamsWhenAutoStartupIsDisabled() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) -> {
              StreamsBuilderFactoryBean factoryBean = factoryBean(context);
              assertThat(factoryBean.isAutoStartup()).isFalse();
              assertThat(factoryBean.isRunning()).isFalse();
              assertThat(factoryBean.getKafkaStreams()).isNull();
            });
  }

  @Test
  void installsTheBoundedMemoryRocksDBConfigSetterWithDefaultLimitsLeavingTheShareToThePlan() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .containsEntry(
                        StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG,
                        BoundedMemoryRocksDBConfigSetter.class.getName())
                    .containsEntry("matview.rocksdb.total-memory", 268435456L)
                    .doesNotContainKey("matview.rocksdb.write-buffer-ratio")
                    .containsEntry("matview.rocksdb.strict-limit", false));
  }

  @Test
  void keepsAWriteBufferRatioSetInKafkaStreamsOwnProperties() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues(
            "spring.kafka.streams.properties.matview.rocksdb.write-buffer-ratio=0.4")
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .containsEntry("matview.rocksdb.write-buffer-ratio", "0.4"));
  }

  @Test
  void passesConfiguredRocksDBLimitsToTheConfigSetter() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues(
            "matview.rocksdb.total-memory=64MB",
            "matview.rocksdb.write-buffer-ratio=0.5",
            "matview.rocksdb.strict-limit=true")
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .containsEntry(
                        StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG,
                        BoundedMemoryRocksDBConfigSetter.class.getName())
                    .containsEntry("matview.rocksdb.total-memory", 67108864L)
                    .containsEntry("matview.rocksdb.write-buffer-ratio", 0.5)
                    .containsEntry("matview.rocksdb.strict-limit", true));
  }

  @Test
  void keepsTheUsersRocksDBConfigSetter() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues(
            "spring.kafka.streams.properties.rocksdb.config.setter="
                + UserRocksDBConfigSetter.class.getName())
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .containsEntry(
                        StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG,
                        UserRocksDBConfigSetter.class.getName())
                    .doesNotContainKey("matview.rocksdb.total-memory"));
  }

  @Test
  void doesNotInstallTheBoundedMemoryRocksDBConfigSetterWhenNotBounded() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues("matview.rocksdb.bounded=false")
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .doesNotContainKey(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG)
                    .doesNotContainKey("matview.rocksdb.total-memory"));
  }

  @Test
  void keepsSpringBootsKafkaStreamsProperties() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues("spring.kafka.bootstrap-servers=broker-1:9092")
        .run(
            (context) ->
                assertThat(streamsConfiguration(context))
                    .containsEntry(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID)
                    .containsEntry(
                        StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, List.of("broker-1:9092")));
  }

  @Test
  void usesTheApplicationsJsonMapper() {
    this.contextRunner
        .withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) ->
                assertThat(context.getBean(ViewSerdes.class).mapper())
                    .isSameAs(context.getBean(JsonMapper.class)));
  }

  @Test
  void usesItsOwnJsonMapperWhenTheApplicationHasNone() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).doesNotHaveBean(JsonMapper.class);
              assertThat(context.getBean(ViewSerdes.class).mapper()).isNotNull();
            });
  }

  @Test
  void doesNotConfigureAnythingWithoutViews() {
    this.contextRunner.run(
        (context) -> {
          assertThat(context).hasNotFailed();
          assertNoMatviewBeans(context);
        });
  }

  @Test
  void doesNotConfigureAnythingWhenKafkaStreamsIsMissing() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withClassLoader(new FilteredClassLoader(StreamsBuilder.class))
        .run(
            (context) -> {
              assertThat(context).hasNotFailed();
              assertNoMatviewBeans(context);
            });
  }

  @Test
  void doesNotConfigureAnythingWhenSpringKafkaIsMissing() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withClassLoader(new FilteredClassLoader(StreamsBuilderFactoryBean.class))
        .run(
            (context) -> {
              assertThat(context).hasNotFailed();
              assertNoMatviewBeans(context);
            });
  }

  @Test
  void doesNotConfigureAnythingWhenJacksonIsMissing() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withClassLoader(new FilteredClassLoader(JsonMapper.class))
        .run(
            (context) -> {
              assertThat(context).hasNotFailed();
              assertNoMatviewBeans(context);
            });
  }

  @Test
  void routesByTheReplicaDirectoryWhichHearsOfStateChangesBeforeTheListenerSetOnKafkaStreams() {
    List<KafkaStreams.State> heard = new ArrayList<>();
    KafkaStreams.StateListener user = (newState, oldState) -> heard.add(newState);
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) -> {
              assertThat(context.getBean(Routing.class)).isInstanceOf(StreamsRouting.class);
              CompositeStateListener installed = listeners(context).state(user);
              assertThat(installed.listeners())
                  .containsExactly(
                      context.getBean(ReplicaDirectory.class),
                      context.getBean(StartupSummary.class),
                      user);
              installed.onChange(KafkaStreams.State.REBALANCING, KafkaStreams.State.CREATED);
              assertThat(heard).containsExactly(KafkaStreams.State.REBALANCING);
            });
  }

  @Test
  void summarizesTheViewsOnceKafkaStreamsRuns(CapturedOutput output) {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) -> {
              listeners(context)
                  .state(null)
                  .onChange(KafkaStreams.State.RUNNING, KafkaStreams.State.REBALANCING);
              assertThat(output)
                  .contains(
                      "Matview serves 2 views of application 'matview-test' without lookups over"
                          + " HTTP")
                  .contains("matview-test-sales-per-shop-changelog");
            });
  }

  @Test
  void pointsTheReplicaDirectoryAtEachKafkaStreamsTheFactoryBeanStartsAndAwayWhenItStops() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) -> {
              ReplicaDirectory directory = context.getBean(ReplicaDirectory.class);
              KafkaStreams streams = mock(KafkaStreams.class);
              given(streams.state()).willReturn(KafkaStreams.State.RUNNING);
              given(streams.metadataForAllStreamsClients()).willReturn(List.of());
              List<StreamsBuilderFactoryBean.Listener> listeners =
                  factoryBean(context).getListeners();
              listeners.forEach((listener) -> listener.streamsAdded("streams", streams));
              assertThat(directory.state()).isEqualTo(KafkaStreams.State.RUNNING);
              listeners.forEach((listener) -> listener.streamsRemoved("streams", streams));
              assertThat(directory.state()).isNull();
            });
  }

  @Test
  void appliesTheKafkaStreamsCustomizerBeansInOrderToEachKafkaStreams() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class, UserCustomizersConfiguration.class)
        .run(
            (context) -> {
              context
                  .getBean(MatviewKafkaStreamsConfigurer.class)
                  .customizer()
                  .customize(mock(KafkaStreams.class));
              assertThat(context.getBean(UserCustomizersConfiguration.class).customized)
                  .containsExactly("first", "second");
            });
  }

  @Test
  void reportsAKafkaStreamsThatMatviewsCustomizerDidNotCreateAsAnError(CapturedOutput output) {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) -> {
              KafkaStreams foreign = mock(KafkaStreams.class);
              given(foreign.state()).willReturn(KafkaStreams.State.RUNNING);
              given(foreign.metadataForAllStreamsClients()).willReturn(List.of());
              factoryBean(context)
                  .getListeners()
                  .forEach((listener) -> listener.streamsAdded("foreign", foreign));
              assertThat(output)
                  .contains("ERROR")
                  .contains(
                      "Kafka Streams 'foreign' was created by a KafkaStreamsCustomizer set on the"
                          + " factory bean after Matview's")
                  .contains("Declare the customizer as a KafkaStreamsCustomizer bean instead");
            });
  }

  @Test
  void
      checksTheTopicsThenAgreesOnTheSecretAndCreatesRepartitionTopicsBeforeTheWebServerAndKafkaStreamsStartOnlyWhenItStarts() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) -> {
              StartupChecksLifecycle checks = context.getBean(StartupChecksLifecycle.class);
              PeerSecretLifecycle secret = context.getBean(PeerSecretLifecycle.class);
              RepartitionTopicsLifecycle topics = context.getBean(RepartitionTopicsLifecycle.class);
              assertThat(checks.getPhase())
                  .isEqualTo(WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE - 2)
                  .isLessThan(factoryBean(context).getPhase());
              assertThat(secret.getPhase()).isEqualTo(checks.getPhase() + 1);
              assertThat(topics.getPhase()).isEqualTo(checks.getPhase() + 1);
              assertThat(topics.isAutoStartup()).isFalse();
              assertThat(topics.isRunning()).isFalse();
              assertThat(checks.isAutoStartup()).isFalse();
              assertThat(checks.isRunning()).isFalse();
              assertThat(secret.isAutoStartup()).isFalse();
              assertThat(secret.isRunning()).isFalse();
            });
  }

  @Test
  void followsTheKafkaStreamsPhaseAUserSet() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withBean(
            "streamsPhase",
            StreamsBuilderFactoryBeanConfigurer.class,
            () -> (factoryBean) -> factoryBean.setPhase(100))
        .run(
            (context) -> {
              assertThat(context.getBean(StartupChecksLifecycle.class).getPhase()).isEqualTo(98);
              assertThat(context.getBean(PeerSecretLifecycle.class).getPhase()).isEqualTo(99);
            });
  }

  @Test
  void registersNoStartupChecksWhenTheyAreDisabled() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues("matview.startup-checks.enabled=false")
        .run(
            (context) -> {
              assertThat(context).doesNotHaveBean(StartupChecks.class);
              assertThat(context).doesNotHaveBean(StartupChecksLifecycle.class);
            });
  }

  @Test
  void backsOffWhenUserDefinesOwnStartupChecks() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withBean(
            "userStartupChecks",
            StartupChecks.class,
            () ->
                new StartupChecks(
                    ViewRegistry.of(Map.of(), new ViewSerdes(JsonMapper.builder().build()), "x"),
                    Duration.ofSeconds(1)))
        .run(
            (context) ->
                assertThat(context.getBean(StartupChecks.class))
                    .isSameAs(context.getBean("userStartupChecks")));
  }

  @Test
  void failsWhenTheStartupChecksTimeoutIsNotPositive() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .withPropertyValues("matview.startup-checks.timeout=0s")
        .run(
            (context) -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                  .hasMessageContaining("matview.startup-checks.timeout");
            });
  }

  @Test
  void failsWhenTheLookupsRetryTimeIsOutOfRange() {
    for (String within : List.of("-1s", "11s")) {
      this.contextRunner
          .withUserConfiguration(SalesViewsConfiguration.class)
          .withPropertyValues("matview.lookups.retry-within=" + within)
          .run(
              (context) -> {
                assertThat(context).hasFailed();
                assertThat(context.getStartupFailure())
                    .rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining("matview.lookups.retry-within")
                    .hasMessageContaining("It must lie between 0 and 10s");
              });
    }
  }

  @Test
  void backsOffWhenUserDefinesOwnViewSerdes() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class, UserViewSerdesConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ViewSerdes.class);
              assertThat(context)
                  .getBean(ViewSerdes.class)
                  .isSameAs(UserViewSerdesConfiguration.SERDES);
              assertThat(context).hasSingleBean(ViewRegistry.class);
            });
  }

  @Test
  void backsOffWhenUserDefinesOwnViewQueryService() {
    this.contextRunner
        .withUserConfiguration(
            SalesViewsConfiguration.class, UserViewQueryServiceConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ViewQueryService.class);
              assertThat(context).hasBean("userViewQueryService");
              assertThat(context).doesNotHaveBean("matviewViewQueryService");
            });
  }

  @Test
  void backsOffWhenUserDefinesOwnLocalInstance() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class, UserLocalInstanceConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(LocalInstance.class);
              assertThat(context).hasBean("userLocalInstance");
            });
  }

  @Test
  void doesNotSetTheApplicationServerInANonWebApplication() {
    this.contextRunner
        .withUserConfiguration(SalesViewsConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).doesNotHaveBean(ApplicationServerInitializer.class);
              assertThat(streamsConfiguration(context))
                  .doesNotContainKey(StreamsConfig.APPLICATION_SERVER_CONFIG);
            });
  }

  private static void assertNoMatviewBeans(AssertableApplicationContext context) {
    assertThat(context).doesNotHaveBean(MatviewProperties.class);
    assertThat(context).doesNotHaveBean(ViewSerdes.class);
    assertThat(context).doesNotHaveBean(ViewRegistry.class);
    assertThat(context).doesNotHaveBean(ViewTopologyBuilder.class);
    assertThat(context).doesNotHaveBean(LocalInstance.class);
    assertThat(context).doesNotHaveBean(ViewQueryService.class);
    assertThat(context).doesNotHaveBean(MatviewStreamsConfigurer.class);
    assertThat(context)
        .doesNotHaveBean(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME);
  }

  private static StreamsListeners listeners(AssertableApplicationContext context) {
    return context.getBean(MatviewKafkaStreamsConfigurer.class).customizer().listeners();
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

  private static TopologyDescription topology(AssertableApplicationContext context) {
    return factoryBean(context).getTopology().describe();
  }

  private static List<String> stores(TopologyDescription description) {
    return nodes(description)
        .filter(TopologyDescription.Processor.class::isInstance)
        .flatMap((node) -> ((TopologyDescription.Processor) node).stores().stream())
        .distinct()
        .toList();
  }

  private static List<String> sinkTopics(TopologyDescription description) {
    return nodes(description)
        .filter(TopologyDescription.Sink.class::isInstance)
        .map((node) -> ((TopologyDescription.Sink) node).topic())
        .toList();
  }

  private static List<String> sourceTopics(TopologyDescription description) {
    return nodes(description)
        .filter(TopologyDescription.Source.class::isInstance)
        .flatMap((node) -> ((TopologyDescription.Source) node).topicSet().stream())
        .toList();
  }

  private static Stream<TopologyDescription.Node> nodes(TopologyDescription description) {
    return description.subtopologies().stream().flatMap((s) -> s.nodes().stream());
  }

  /** A user's own RocksDB config setter. */
  public static class UserRocksDBConfigSetter implements RocksDBConfigSetter {

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {}

    @Override
    public void close(String storeName, Options options) {}
  }

  record Sale(String shop, long amount, Instant at) {}

  record Visit(String user, Instant at) {}

  @Configuration(proxyBeanMethods = false)
  static class SalesViewsConfiguration {

    @MaterializedView("sales-per-shop")
    ViewDefinition<String, Sale, Long> salesPerShop() {
      return Views.from("sales", Sale.class).groupBy(String.class, Sale::shop).count();
    }

    @MaterializedView
    ViewDefinition<String, Sale, Long> salesTotal() {
      return Views.from("sales", Sale.class).sum(Sale::amount);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserCustomizersConfiguration {

    final List<String> customized = new ArrayList<>();

    @Bean
    @Order(2)
    KafkaStreamsCustomizer secondCustomizer() {
      return (kafkaStreams) -> this.customized.add("second");
    }

    @Bean
    @Order(1)
    KafkaStreamsCustomizer firstCustomizer() {
      return (kafkaStreams) -> this.customized.add("first");
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class PlainBeanViewConfiguration {

    @Bean
    ViewDefinition<String, Sale, Long> salesPerDay() {
      return Views.from("sales", Sale.class)
          .eventTime(Sale::at)
          .windowedBy(ViewWindow.tumbling(Duration.ofDays(1)))
          .count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class NameAttributeViewConfiguration {

    @MaterializedView(name = "sales-per-day")
    ViewDefinition<String, Sale, Long> salesPerDay() {
      return Views.from("sales", Sale.class)
          .windowedBy(ViewWindow.tumbling(Duration.ofDays(1)))
          .count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class WindowedViewsConfiguration {

    @MaterializedView("sales-per-minute")
    ViewDefinition<String, Sale, Long> salesPerMinute() {
      return Views.from("sales", Sale.class)
          .groupBy(String.class, Sale::shop)
          .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)).withGrace(Duration.ofSeconds(10)))
          .sum(Sale::amount);
    }

    @MaterializedView("visits")
    ViewDefinition<String, Visit, Long> visits() {
      return Views.from("visits", Visit.class)
          .windowedBy(ViewWindow.session(Duration.ofMinutes(30)))
          .count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserViewSerdesConfiguration {

    static final ViewSerdes SERDES = new ViewSerdes(JsonMapper.builder().build());

    @Bean
    ViewSerdes userViewSerdes() {
      return SERDES;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserViewQueryServiceConfiguration {

    @Bean
    ViewQueryService userViewQueryService() {
      ViewSerdes serdes = new ViewSerdes(JsonMapper.builder().build());
      LocalInstance localInstance = new LocalInstance();
      return new ViewQueryService(
          ViewRegistry.of(Map.of(), serdes, "user"),
          new StreamsRouting(
              new ReplicaDirectory(List.of(), "user", Duration.ofSeconds(1), InstanceMemory.none()),
              localInstance),
          new LocalStores(() -> null),
          new PeerClient("/views", Duration.ofSeconds(1), null, TestPeers.requests(), false),
          localInstance,
          new KeyParser(serdes.mapper()),
          Clock.systemUTC(),
          StaleReads.disabled(),
          LocalReplicas.NONE,
          LookupMetrics.NONE);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserLocalInstanceConfiguration {

    @Bean
    LocalInstance userLocalInstance() {
      return new LocalInstance();
    }
  }
}
