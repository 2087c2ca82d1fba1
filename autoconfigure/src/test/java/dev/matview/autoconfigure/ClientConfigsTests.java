package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.deadletter.DeadLetters;
import dev.matview.kafka.ComposingKafkaStreams;
import dev.matview.rocksdb.RocksDBMemoryLimits;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * Matview's settings reach its RocksDB config setter and exception handlers through Kafka Streams'
 * configuration, and none of the clients that Kafka Streams creates through the client supplier the
 * factory bean hands Matview's customizer is given them, so none reports them unused.
 */
@ExtendWith(OutputCaptureExtension.class)
class ClientConfigsTests {

  private static final String UNUSED = "were supplied but are not used yet";

  @TempDir Path stateDir;

  @Test
  void kafkaStreamsCreatesItsClientsWithoutMatviewsKeysWhichItsOwnConfigurationKeeps(
      CapturedOutput output) {
    RecordingClientSupplier clients = new RecordingClientSupplier();
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                MatviewAutoConfiguration.class,
                MatviewDeadLetterAutoConfiguration.class,
                KafkaAutoConfiguration.class))
        .withUserConfiguration(ViewConfiguration.class)
        .withPropertyValues(
            "spring.kafka.bootstrap-servers=127.0.0.1:1",
            "spring.kafka.streams.application-id=quiet",
            "spring.kafka.streams.state-dir=" + this.stateDir,
            "spring.kafka.streams.auto-startup=false",
            "spring.kafka.admin.auto-create=false",
            "matview.startup-checks.enabled=false",
            "matview.peers.secret=0123456789abcdef0123456789abcdef",
            "matview.rocksdb.strict-limit=true")
        .run(
            (context) -> {
              StreamsBuilderFactoryBean factoryBean =
                  context.getBean(
                      "&" + KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_BUILDER_BEAN_NAME,
                      StreamsBuilderFactoryBean.class);
              Properties configuration = factoryBean.getStreamsConfiguration();
              assertThat(configuration)
                  .containsKeys(RocksDBMemoryLimits.STRICT_LIMIT_CONFIG, DeadLetters.CONFIG);
              assertThat(unused(new ConsumerConfig(mainConsumer(configuration))))
                  .contains(RocksDBMemoryLimits.STRICT_LIMIT_CONFIG, DeadLetters.CONFIG);

              KafkaStreams streams =
                  context
                      .getBean(MatviewKafkaStreamsConfigurer.class)
                      .customizer()
                      .initKafkaStreams(
                          factoryBean.getObject().build(configuration), configuration, clients);
              assertThat(streams).isInstanceOf(ComposingKafkaStreams.class);
              streams.close(Duration.ofSeconds(10));

              assertThat(clients.configs).containsKeys("admin", "consumer", "restore consumer");
              assertThat(unused(new AdminClientConfig(clients.configs.get("admin"))))
                  .noneMatch((key) -> key.startsWith("matview."));
              assertThat(
                      unused(
                          new ConsumerConfig(withDeserializers(clients.configs.get("consumer")))))
                  .noneMatch((key) -> key.startsWith("matview."));
              clients.configs.values().stream()
                  .map(Map::keySet)
                  .forEach(
                      (keys) -> assertThat(keys).noneMatch((key) -> key.startsWith("matview.")));
              assertThat(output.getAll().lines().filter((line) -> line.contains(UNUSED)))
                  .noneMatch((line) -> line.matches(".*[\\[ ]matview\\..*"));
            });
  }

  private static Map<String, Object> mainConsumer(Properties configuration) {
    return withDeserializers(
        new StreamsConfig(configuration).getMainConsumerConfigs("quiet", "quiet-consumer", 0));
  }

  private static Map<String, Object> withDeserializers(Map<String, Object> consumer) {
    Map<String, Object> config = new HashMap<>(consumer);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return config;
  }

  private static List<String> unused(AbstractConfig config) {
    return List.copyOf(config.unused());
  }

  record Sale(String shop) {}

  @Configuration(proxyBeanMethods = false)
  static class ViewConfiguration {

    @MaterializedView("per-shop")
    ViewDefinition<String, Sale, Long> perShop() {
      return Views.from("sales", Sale.class).count();
    }
  }
}
