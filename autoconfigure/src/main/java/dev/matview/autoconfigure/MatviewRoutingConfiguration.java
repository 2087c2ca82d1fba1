package dev.matview.autoconfigure;

import dev.matview.execution.MatviewExecutors;
import dev.matview.kafka.FilteringClientSupplier;
import dev.matview.kafka.MatviewConfigs;
import dev.matview.query.local.BrokerAdmin;
import dev.matview.query.local.LocalReplicas;
import dev.matview.query.local.LocalStores;
import dev.matview.query.local.ReadIsolation;
import dev.matview.query.local.SourceRecords;
import dev.matview.query.routing.InstanceMemory;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.LookupGate;
import dev.matview.query.routing.ReplicaDirectory;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.StreamsRouting;
import dev.matview.replica.StoreHandles;
import dev.matview.topology.ViewRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/** This instance's store partitions, the replica directory, the routing and the lookup gate. */
@Configuration(proxyBeanMethods = false)
final class MatviewRoutingConfiguration {

  /** How often, at most, lookups rebuild a replica directory that is incomplete or rebalancing. */
  static final Duration DIRECTORY_REFRESH_INTERVAL = Duration.ofMillis(200);

  @Bean
  @ConditionalOnMissingBean
  LocalInstance matviewLocalInstance() {
    return new LocalInstance();
  }

  @Bean
  @ConditionalOnMissingBean
  StoreHandles matviewStoreHandles(MatviewExecutors executors) {
    return new StoreHandles(executors.changeFanOut());
  }

  @Bean
  @ConditionalOnMissingBean
  SourceRecords matviewSourceRecords(
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
          StreamsBuilderFactoryBean factoryBean,
      ViewRegistry registry,
      MatviewExecutors executors) {
    return new SourceRecords(
        registry.applicationId(),
        new BrokerAdmin(
            () ->
                MatviewConfigs.withoutMatviewKeys(
                    Objects.requireNonNull(
                        factoryBean.getStreamsConfiguration(),
                        "Kafka Streams has no configuration")),
            registry.applicationId() + "-matview-positions"),
        executors.timer(),
        executors.polls());
  }

  @Bean
  @ConditionalOnMissingBean
  LocalStores matviewLocalStores(
      @Qualifier(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME)
          StreamsBuilderFactoryBean factoryBean,
      ObjectProvider<LocalReplicas> localReplicas,
      StoreHandles handles,
      ViewRegistry registry,
      SourceRecords sourceRecords) {
    return new LocalStores(
        factoryBean::getKafkaStreams,
        localReplicas.getIfAvailable(() -> LocalReplicas.NONE),
        handles,
        registry,
        sourceRecords,
        ReadIsolation.of(
            Objects.requireNonNull(
                factoryBean.getStreamsConfiguration(), "Kafka Streams has no configuration")));
  }

  /** Under exactly-once, has each transactional producer tell {@code handles} when it commits. */
  @Bean
  StreamsBuilderFactoryBeanConfigurer matviewTransactionCommitsConfigurer(StoreHandles handles) {
    return (factoryBean) -> {
      Properties streams = factoryBean.getStreamsConfiguration();
      if (streams != null && ReadIsolation.of(streams).exactlyOnce()) {
        streams.put(
            FilteringClientSupplier.TRANSACTION_COMMITS_CONFIG, handles.transactionCommits());
        factoryBean.setStreamsConfiguration(streams);
      }
    };
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
  Routing matviewRouting(ReplicaDirectory directory, LocalInstance localInstance) {
    return new StreamsRouting(directory, localInstance);
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
}
