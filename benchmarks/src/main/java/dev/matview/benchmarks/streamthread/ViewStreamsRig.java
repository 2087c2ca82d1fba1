package dev.matview.benchmarks.streamthread;

import dev.matview.execution.MatviewExecutors;
import dev.matview.replica.AppliedOffset;
import dev.matview.replica.StoreHandles;
import dev.matview.topology.RecordRules;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.topology.ViewTopologyBuilder;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import tools.jackson.databind.json.JsonMapper;

/**
 * One table view, clicks counted per page, built by Matview's {@link ViewTopologyBuilder} with its
 * own processors, RocksDB store, {@link AppliedOffset} and change feed, run by a Kafka Streams
 * application of its own (one stream thread) over a topic of one partition that holds every record
 * before it starts.
 */
final class ViewStreamsRig implements AutoCloseable {

  /** The view, and the topic it reads. */
  static final String VIEW = "clicks";

  private final MatviewExecutors executors = new MatviewExecutors();

  private final KafkaStreams streams;

  private final CompletableFuture<AppliedOffset> opened = new CompletableFuture<>();

  /**
   * Starts the view as application {@code applicationId} on the broker at {@code bootstrap}, its
   * store under {@code stateDir}; {@code onOpen} is handed the store partition's offset on the
   * stream thread when Kafka Streams opens it, before it processes a record.
   */
  ViewStreamsRig(
      String bootstrap, String applicationId, Path stateDir, Consumer<AppliedOffset> onOpen) {
    ViewRegistry registry = registry(applicationId);
    String storeName = registry.find(VIEW).orElseThrow().storeName();
    StoreHandles handles = new StoreHandles(this.executors.changeFanOut());
    handles.whenOpened(
        (store, partition) -> {
          if (store.equals(storeName)) {
            AppliedOffset offset =
                Objects.requireNonNull(handles.positions().of(store, partition), "not open");
            onOpen.accept(offset);
            this.opened.complete(offset);
          }
        });
    StreamsBuilder builder = new StreamsBuilder();
    new ViewTopologyBuilder(builder, RecordRules.STANDARD, handles).addAll(registry);
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    config.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
    config.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
    this.streams = new KafkaStreams(builder.build(), config);
    this.streams.start();
  }

  /** The view's definitions, named for {@code applicationId}. */
  static ViewRegistry registry(String applicationId) {
    return ViewRegistry.of(
        Map.<String, ViewDefinition<?, ?, ?>>of(VIEW, Views.from(VIEW, Click.class).count()),
        new ViewSerdes(JsonMapper.builder().build()),
        applicationId);
  }

  /** The {@code page} as the store keeps it, as a change feed's updates carry it. */
  @SuppressWarnings("unchecked")
  static byte[] keyBytes(String applicationId, String page) {
    ResolvedView<String, ?, ?> view =
        (ResolvedView<String, ?, ?>) registry(applicationId).find(VIEW).orElseThrow();
    return view.keySerde().serializer().serialize(view.changelogTopic(applicationId), page);
  }

  /** The view's store partition, once Kafka Streams opened it. */
  AppliedOffset offset() throws Exception {
    return this.opened.get(2, TimeUnit.MINUTES);
  }

  @Override
  public void close() {
    this.streams.close(Duration.ofSeconds(30));
    this.executors.close();
  }

  /** A click on a page. */
  record Click(String page) {}
}
