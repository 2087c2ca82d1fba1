package dev.matview.autoconfigure;

import dev.matview.rocksdb.BoundedMemoryRocksDBConfigSetter;
import dev.matview.rocksdb.RocksDBMemoryLimits;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * Adds Matview's defaults where the user set nothing: RocksDB memory bounded (without the default
 * memtable share, which the stores the start-up checks plan for size), and a stream thread that saw
 * a propagating source topic missing replaced rather than fatal.
 */
final class MatviewStreamsConfigurer implements StreamsBuilderFactoryBeanConfigurer {

  private final MatviewProperties.Rocksdb rocksdb;

  MatviewStreamsConfigurer(MatviewProperties properties) {
    this.rocksdb = properties.getRocksdb();
    validate(this.rocksdb);
  }

  @Override
  public void configure(StreamsBuilderFactoryBean factoryBean) {
    Properties streams = factoryBean.getStreamsConfiguration();
    if (streams == null) {
      return;
    }
    if (this.rocksdb.isBounded()
        && !streams.containsKey(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG)) {
      streams.put(
          StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG,
          BoundedMemoryRocksDBConfigSetter.class.getName());
      Map<String, Object> limits = new HashMap<>(limits(this.rocksdb).toConfigs());
      if (!this.rocksdb.isWriteBufferRatioSet()) {
        limits.remove(RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG);
      }
      streams.putAll(limits);
    }
    factoryBean.setStreamsConfiguration(streams);
    if (factoryBean.getStreamsUncaughtExceptionHandler() == null) {
      factoryBean.setStreamsUncaughtExceptionHandler(new MissingSourceTopicHandler());
    }
  }

  @Override
  public int getOrder() {
    return 0;
  }

  private static RocksDBMemoryLimits limits(MatviewProperties.Rocksdb rocksdb) {
    return new RocksDBMemoryLimits(
        rocksdb.getTotalMemory().toBytes(), rocksdb.getWriteBufferRatio(), rocksdb.isStrictLimit());
  }

  private static void validate(MatviewProperties.Rocksdb rocksdb) {
    if (rocksdb.getTotalMemory().toBytes() <= 0) {
      throw InvalidMatviewPropertyException.notPositive(
          "matview.rocksdb.total-memory", rocksdb.getTotalMemory(), "256MB");
    }
    double ratio = rocksdb.getWriteBufferRatio();
    if (!(ratio > 0 && ratio <= 1)) {
      throw InvalidMatviewPropertyException.outside(
          "matview.rocksdb.write-buffer-ratio", ratio, "above 0 and at most 1", "0.25");
    }
  }
}
