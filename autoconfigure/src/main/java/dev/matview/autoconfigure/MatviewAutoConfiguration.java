package dev.matview.autoconfigure;

import dev.matview.check.StartupChecks;
import dev.matview.peer.PeerRequests;
import dev.matview.peer.PeerSecret;
import dev.matview.peer.PeerTrust;
import dev.matview.peer.SecretAgreement;
import dev.matview.query.CursorCodec;
import dev.matview.query.Fallbacks;
import dev.matview.query.InstanceMemory;
import dev.matview.query.KeyParser;
import dev.matview.query.LocalInstance;
import dev.matview.query.LocalReplicas;
import dev.matview.query.LocalStores;
import dev.matview.query.LookupGate;
import dev.matview.query.LookupMetrics;
import dev.matview.query.PeerClient;
import dev.matview.query.PeerMarks;
import dev.matview.query.ReplicaDirectory;
import dev.matview.query.Routing;
import dev.matview.query.StaleReads;
import dev.matview.query.StreamsRouting;
import dev.matview.query.ViewBatchService;
import dev.matview.query.ViewQueryService;
import dev.matview.query.ViewScanService;
import dev.matview.replica.StoreHandles;
import dev.matview.startup.StartupSummary;
import dev.matview.topology.EventTimeBounds;
import dev.matview.topology.RecordDrops;
import dev.matview.topology.RecordRules;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.topology.ViewTopologyBuilder;
import dev.matview.view.DecimalBounds;
import dev.matview.view.ViewDefinition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.kafka.annotation.EnableKafkaStreams;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.KafkaStreamsConfiguration;
import org.springframework.kafka.config.KafkaStreamsCustomizer;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns every {@link ViewDefinition} bean into Kafka Streams DSL on spring-kafka's default {@link
 * StreamsBuilderFactoryBean}, with Matview's streams defaults, and offers the view query service.
 */
@AutoConfiguration(before = KafkaAutoConfiguration.class)
@ConditionalOnClass({
  KafkaStreams.class,
  StreamsBuilder.class,
  StreamsBuilderFactoryBean.class,
  JsonMapper.class
})
@ConditionalOnBean(ViewDefinition.class)
@EnableKafkaStreams
@EnableConfigurationProperties(MatviewProperties.class)
public final class MatviewAutoConfiguration {

  /**
   * How often, at most, lookups rebuild the replica directory themselves: while a view has no
   * complete snapshot or the instances rebalance.
   */
  static final Duration DIRECTORY_REFRESH_INTERVAL = Duration.ofMillis(200);

  @Bean
  @ConditionalOnMissingBean
  ViewSerdes matviewViewSerdes(
      ObjectProvider<JsonMapper> jsonMapper, MatviewProperties properties) {
    MatviewProperties.Records records = properties.getRecords();
    DecimalBounds bounds;
    try {
      bounds = new DecimalBounds(records.getMaxDecimalPrecision(), records.getMaxDecimalScale());
    } catch (IllegalArgumentException ex) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.records.max-decimal-precision",
          records.getMaxDecimalPrecision() + " (scale " + records.getMaxDecimalScale() + ")",
          "Precision must be 1 to 1000 and matview.records.max-decimal-scale 0 to the precision,"
              + " for example 38 and 18: "
              + ex.getMessage());
    }
    return new ViewSerdes(jsonMapper.getIfAvailable(() -> JsonMapper.builder().build()), bounds);
  }

  @Bean
  @ConditionalOnMissingBean
  ViewRegistry matviewViewRegistry(
      ListableBeanFactory beanFactory,
      ViewSerdes serdes,
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_CONFIG_BEAN_NAME)
          KafkaStreamsConfiguration streamsConfiguration) {
    String applicationId =
        streamsConfiguration.asProperties().getProperty(StreamsConfig.APPLICATION_ID_CONFIG);
    return ViewRegistry.of(ViewDefinitionBeans.collect(beanFactory), serdes, applicationId);
  }

  @Bean
  @ConditionalOnMissingBean
  ViewTopologyBuilder matviewViewTopology(
      StreamsBuilder streamsBuilder,
      ViewRegistry registry,
      MatviewProperties properties,
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_CONFIG_BEAN_NAME)
          KafkaStreamsConfiguration streamsConfiguration,
      ObjectProvider<RecordDrops> drops,
      StoreHandles handles) {
    Duration maxAhead = properties.getRecords().getMaxEventTimeAhead();
    if (maxAhead.isNegative()) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.records.max-event-time-ahead",
          maxAhead,
          "It must not be negative, for example 1m.");
    }
    RecordRules rules =
        new RecordRules(
            new EventTimeBounds(maxAhead, Clock.systemUTC()),
            properties.getDeadLetter().isLateRecords(),
            drops.getIfAvailable(() -> RecordDrops.NONE),
            ProducerLimits.changelogRecordLimit(streamsConfiguration, registry.applicationId()));
    ViewTopologyBuilder topology = new ViewTopologyBuilder(streamsBuilder, rules, handles);
    topology.addAll(registry);
    return topology;
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewStreamsConfigurer")
  MatviewStreamsConfigurer matviewStreamsConfigurer(MatviewProperties properties) {
    return new MatviewStreamsConfigurer(properties);
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewKafkaStreamsConfigurer")
  MatviewKafkaStreamsConfigurer matviewKafkaStreamsConfigurer(
      PeerSecretEstablisher secret,
      ObjectProvider<StreamsListenersContributor> contributors,
      ObjectProvider<KafkaStreamsCustomizer> customizers) {
    return new MatviewKafkaStreamsConfigurer(
        new MatviewKafkaStreamsCustomizer(secret, contributors, customizers));
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewMembershipConfigurer")
  MembershipConfigurer matviewMembershipConfigurer(MatviewProperties properties) {
    return new MembershipConfigurer(properties);
  }

  @Bean
  @ConditionalOnMissingBean
  LocalInstance matviewLocalInstance() {
    return new LocalInstance();
  }

  @Bean
  @ConditionalOnMissingBean
  StoreHandles matviewStoreHandles() {
    return new StoreHandles();
  }

  @Bean
  @ConditionalOnMissingBean
  LocalStores matviewLocalStores(
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
          StreamsBuilderFactoryBean factoryBean,
      ObjectProvider<LocalReplicas> localReplicas,
      StoreHandles handles,
      ViewRegistry registry) {
    return new LocalStores(
        factoryBean::getKafkaStreams,
        localReplicas.getIfAvailable(() -> LocalReplicas.NONE),
        handles,
        registry);
  }

  @Bean
  @ConditionalOnMissingBean
  ReplicaDirectory matviewReplicaDirectory(
      ViewRegistry registry, ObjectProvider<StreamsBuilderFactoryBean> factoryBean) {
    InstanceMemory memory =
        InstanceMemory.inFile(
            () ->
                Path.of(
                    StateDir.of(factoryBean.getObject().getStreamsConfiguration()),
                    registry.applicationId(),
                    InstanceMemory.FILE_NAME));
    return new ReplicaDirectory(
        registry.all(), registry.applicationId(), DIRECTORY_REFRESH_INTERVAL, memory);
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewReplicaDirectoryConfigurer")
  ReplicaDirectoryConfigurer matviewReplicaDirectoryConfigurer(ReplicaDirectory directory) {
    return new ReplicaDirectoryConfigurer(directory);
  }

  @Bean
  @ConditionalOnMissingBean
  StartupSummary matviewStartupSummary(
      ViewRegistry registry,
      BeanFactory beanFactory,
      LocalInstance localInstance,
      MatviewProperties properties,
      Environment environment) {
    Supplier<StreamsBuilderFactoryBean> factoryBean = factoryBeanLookup(beanFactory);
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

  @Bean
  @ConditionalOnMissingBean
  Routing matviewRouting(ReplicaDirectory directory, LocalInstance localInstance) {
    return new StreamsRouting(directory, localInstance);
  }

  @Bean
  @ConditionalOnMissingBean
  PeerTrust matviewPeerTrust(MatviewProperties properties) {
    String secret = properties.getPeers().getSecret();
    if (secret == null) {
      return PeerTrust.pending();
    }
    try {
      return PeerTrust.of(PeerSecret.of(secret));
    } catch (IllegalArgumentException ex) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.peers.secret",
          "(hidden)",
          "It has "
              + secret.getBytes(StandardCharsets.UTF_8).length
              + " bytes and needs at least "
              + PeerSecret.MIN_BYTES
              + ", for example the output of 'openssl rand -base64 32'.");
    }
  }

  @Bean
  @ConditionalOnMissingBean
  PeerRequests matviewPeerRequests(PeerTrust trust, MatviewProperties properties) {
    Duration validity = properties.getPeers().getSignatureValidity();
    if (validity.isZero() || validity.isNegative()) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.peers.signature-validity", validity, "It must be positive, for example 30s.");
    }
    return new PeerRequests(trust, Clock.systemUTC(), validity);
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewPeerSecretEstablisher")
  PeerSecretEstablisher matviewPeerSecretEstablisher(
      PeerTrust trust, MatviewProperties properties) {
    Duration timeout = properties.getPeers().getAgreementTimeout();
    if (timeout.isZero() || timeout.isNegative()) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.peers.agreement-timeout", timeout, "It must be positive, for example 30s.");
    }
    return new PeerSecretEstablisher(trust, new SecretAgreement(timeout));
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewPeerSecretLifecycle")
  PeerSecretLifecycle matviewPeerSecretLifecycle(
      PeerSecretEstablisher establisher, BeanFactory beanFactory) {
    return new PeerSecretLifecycle(establisher, factoryBeanLookup(beanFactory));
  }

  /** Looks the default factory bean up when called, so that a lifecycle does not depend on it. */
  static Supplier<StreamsBuilderFactoryBean> factoryBeanLookup(BeanFactory beanFactory) {
    return () ->
        beanFactory.getBean(
            BeanFactory.FACTORY_BEAN_PREFIX
                + KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME,
            StreamsBuilderFactoryBean.class);
  }

  @Bean
  @ConditionalOnMissingBean
  PeerClient matviewPeerClient(
      MatviewProperties properties,
      Environment environment,
      ObjectProvider<SslBundles> bundles,
      PeerRequests peerRequests) {
    MatviewProperties.Forwarding forwarding = properties.getForwarding();
    Duration timeout = forwarding.getTimeout();
    if (timeout.isZero() || timeout.isNegative()) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.forwarding.timeout", timeout, "It must be positive, for example 2s.");
    }
    return new PeerClient(
        LookupBaseUrl.path(properties.getWeb(), environment),
        timeout,
        ForwardingTls.sslContext(environment, forwarding.getSslBundle(), bundles),
        peerRequests,
        forwarding.isTrustedNetwork());
  }

  @Bean
  @ConditionalOnMissingBean
  LookupGate matviewLookupGate() {
    return new LookupGate();
  }

  @Bean
  @ConditionalOnMissingBean(name = "matviewLookupGateLifecycle")
  LookupGateLifecycle matviewLookupGateLifecycle(LookupGate gate) {
    return new LookupGateLifecycle(gate);
  }

  @Bean
  @ConditionalOnMissingBean
  PeerMarks matviewPeerMarks(MatviewProperties properties, ReplicaDirectory directory) {
    Duration downTime = properties.getPeers().getDownTime();
    if (downTime.isNegative()) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.peers.down-time", downTime, "It must not be negative, for example 2s.");
    }
    return new PeerMarks(downTime, directory::names);
  }

  @Bean
  @ConditionalOnMissingBean
  ViewQueryService matviewViewQueryService(
      ViewRegistry registry,
      Routing routing,
      LocalStores localStores,
      PeerClient peerClient,
      LocalInstance localInstance,
      ViewSerdes serdes,
      MatviewProperties properties,
      PeerMarks peerMarks,
      LookupGate lookupGate,
      ObjectProvider<LocalReplicas> localReplicas,
      ObjectProvider<LookupMetrics> lookupMetrics) {
    MatviewProperties.StandbyReads standbyReads = properties.getStandbyReads();
    if (standbyReads.getMaxLag() < 0) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.standby-reads.max-lag",
          standbyReads.getMaxLag(),
          "It must be at least 0, for example 10000.");
    }
    LocalReplicas replicas = localReplicas.getIfAvailable(() -> LocalReplicas.NONE);
    Fallbacks fallbacks =
        new Fallbacks(
            routing,
            localStores,
            peerClient,
            localInstance,
            replicas,
            new StaleReads(standbyReads.isEnabled(), standbyReads.getMaxLag()),
            peerMarks,
            lookupGate);
    return new ViewQueryService(
        registry,
        localStores,
        new KeyParser(serdes.mapper()),
        Clock.systemUTC(),
        fallbacks,
        lookupMetrics.getIfAvailable(() -> LookupMetrics.NONE));
  }

  @Bean
  @ConditionalOnMissingBean
  ViewScanService matviewViewScanService(
      ViewQueryService queryService,
      Routing routing,
      LocalStores localStores,
      PeerClient peerClient,
      ViewSerdes serdes,
      PeerTrust peerTrust,
      MatviewProperties properties) {
    int maxPageSize = properties.getWeb().getMaxPageSize();
    requirePositive("matview.web.max-page-size", maxPageSize);
    return new ViewScanService(
        queryService,
        routing,
        localStores,
        peerClient,
        new KeyParser(serdes.mapper()),
        new CursorCodec(peerTrust),
        serdes.mapper(),
        Clock.systemUTC(),
        maxPageSize);
  }

  @Bean
  @ConditionalOnMissingBean
  ViewBatchService matviewViewBatchService(
      ViewQueryService queryService,
      Routing routing,
      PeerClient peerClient,
      PeerMarks peerMarks,
      ViewSerdes serdes,
      MatviewProperties properties) {
    int maxBatchSize = properties.getWeb().getMaxBatchSize();
    requirePositive("matview.web.max-batch-size", maxBatchSize);
    return new ViewBatchService(
        queryService, routing, peerClient, peerMarks, serdes.mapper(), maxBatchSize);
  }

  private static void requirePositive(String property, int value) {
    if (value < 1) {
      throw new InvalidConfigurationPropertyValueException(
          property, value, "It must be at least 1, for example 1000.");
    }
  }

  /** Checks the views' topics on the broker before Kafka Streams starts. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBooleanProperty(name = "matview.startup-checks.enabled", matchIfMissing = true)
  static class StartupChecksConfiguration {

    @Bean
    @ConditionalOnMissingBean
    StartupChecks matviewStartupChecks(ViewRegistry registry, MatviewProperties properties) {
      Duration timeout = properties.getStartupChecks().getTimeout();
      if (timeout.isZero() || timeout.isNegative()) {
        throw new InvalidConfigurationPropertyValueException(
            "matview.startup-checks.timeout", timeout, "It must be positive, for example 30s.");
      }
      return new StartupChecks(registry, timeout);
    }

    @Bean
    @ConditionalOnMissingBean
    StartupChecksLifecycle matviewStartupChecksLifecycle(
        BeanFactory beanFactory, StartupChecks checks) {
      return new StartupChecksLifecycle(factoryBeanLookup(beanFactory), checks);
    }
  }

  /**
   * Keeps the peers' secret out of the actuator's env and configprops endpoints, even where they
   * are set to show values.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(SanitizingFunction.class)
  static class PeerSecretSanitizingConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "matviewPeerSecretSanitizer")
    SanitizingFunction matviewPeerSecretSanitizer() {
      return SanitizingFunction.sanitizeValue()
          .ifKeyMatches(
              (key) ->
                  key.toLowerCase(Locale.ROOT)
                      .replace('_', '.')
                      .replace("-", "")
                      .equals("matview.peers.secret"));
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
