package dev.matview.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link ComposingKafkaStreams} keeps Matview's state listener when another is set on it, and
 * calls the last one set; its changes of state on closing, which need no broker, show it.
 */
class ComposingKafkaStreamsTests {

  @TempDir Path stateDir;

  private final List<String> heard = new CopyOnWriteArrayList<>();

  @Test
  void callsMatviewsStateListenerThenTheOneSetOnIt() {
    KafkaStreams streams = create();
    streams.setStateListener(listener("user"));
    streams.close(Duration.ofSeconds(10));
    awaitHeard(
        "matview PENDING_SHUTDOWN",
        "user PENDING_SHUTDOWN",
        "matview NOT_RUNNING",
        "user NOT_RUNNING");
  }

  @Test
  void replacesTheListenerSetBeforeButNeverMatviews() {
    KafkaStreams streams = create();
    streams.setStateListener(listener("spring-kafka"));
    streams.setStateListener(listener("customizer"));
    streams.close(Duration.ofSeconds(10));
    awaitHeard(
        "matview PENDING_SHUTDOWN",
        "customizer PENDING_SHUTDOWN",
        "matview NOT_RUNNING",
        "customizer NOT_RUNNING");
  }

  @Test
  void callsMatviewsStateListenerWhenNoneOrNullIsSet() {
    KafkaStreams streams = create();
    streams.setStateListener(null);
    streams.close(Duration.ofSeconds(10));
    awaitHeard("matview PENDING_SHUTDOWN", "matview NOT_RUNNING");
  }

  /** Waits for what the listeners heard: the last change of state is told after close returns. */
  private void awaitHeard(String... changes) {
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(this.heard).containsExactly(changes));
  }

  private KafkaStreams create() {
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream("sales").to("copies");
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "composing");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, this.stateDir.toString());
    return new ComposingKafkaStreams(
        builder.build(),
        properties,
        new PublicClients(),
        StreamsListeners.builder().stateBefore(listener("matview")).build());
  }

  private KafkaStreams.StateListener listener(String name) {
    return (newState, oldState) -> this.heard.add(name + " " + newState);
  }

  /** Creates Kafka's clients through their public constructors. */
  private static final class PublicClients implements KafkaClientSupplier {

    @Override
    public Admin getAdmin(Map<String, Object> config) {
      return Admin.create(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
      return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
      return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
      return getConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
      return getConsumer(config);
    }
  }
}
