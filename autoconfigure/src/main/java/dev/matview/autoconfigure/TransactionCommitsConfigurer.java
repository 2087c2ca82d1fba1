package dev.matview.autoconfigure;

import dev.matview.kafka.FilteringClientSupplier;
import dev.matview.query.local.ReadIsolation;
import dev.matview.replica.StoreHandles;
import java.util.Properties;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * Under exactly-once, has each stream thread's transactional producer tell the {@link StoreHandles}
 * when its transaction commits, so that lookups can read committed state only.
 */
final class TransactionCommitsConfigurer implements StreamsBuilderFactoryBeanConfigurer {

  private final StoreHandles handles;

  TransactionCommitsConfigurer(StoreHandles handles) {
    this.handles = handles;
  }

  @Override
  public void configure(StreamsBuilderFactoryBean factoryBean) {
    Properties streams = factoryBean.getStreamsConfiguration();
    if (streams != null && ReadIsolation.of(streams).exactlyOnce()) {
      streams.put(
          FilteringClientSupplier.TRANSACTION_COMMITS_CONFIG, this.handles.transactionCommits());
      factoryBean.setStreamsConfiguration(streams);
    }
  }
}
