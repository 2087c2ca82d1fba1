package dev.matview.query.local;

import static org.awaitility.Awaitility.await;

import dev.matview.kafka.FilteringClientSupplier;
import dev.matview.replica.AppliedOffset;
import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreHandles;
import dev.matview.replica.WindowHandle;
import dev.matview.topology.EventTimeBounds;
import dev.matview.topology.RecordDrops;
import dev.matview.topology.RecordRules;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.topology.ViewTopologyBuilder;
import dev.matview.view.ViewWindow;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Matview's topology of the differential views in a real Kafka Streams of its own, on one
 * partition, that commits only when a record of its commits topic asks it to (a commit of one task
 * commits them all), late records dropped rather than dead letters; and the {@link LocalStores}
 * that read it.
 */
final class MatviewRun implements AutoCloseable {

  private final ViewRegistry registry;

  /** The key of a commits record that fails the stream thread once armed. */
  static final String ABORT = "abort";

  private final StoreHandles handles = new StoreHandles();

  private final AtomicBoolean abortArmed = new AtomicBoolean();

  private final KafkaStreams streams;

  private final LocalStores stores;

  /**
   * The views over {@code topic}, asked to commit by {@code commits}, of the application {@code
   * applicationId} on the broker at {@code bootstrap}, with its state under {@code stateDir}.
   */
  MatviewRun(
      String bootstrap,
      Path stateDir,
      String topic,
      String commits,
      String applicationId,
      JsonMapper mapper) {
    this(bootstrap, stateDir, topic, commits, applicationId, mapper, false);
  }

  /**
   * The views as above, processed exactly once when {@code exactlyOnce}: then a record {@value
   * #ABORT} of the commits topic, once armed with {@link #armAbort()}, fails the stream thread in
   * the middle of its transaction, which aborts, and Kafka Streams replaces the thread.
   */
  MatviewRun(
      String bootstrap,
      Path stateDir,
      String topic,
      String commits,
      String applicationId,
      JsonMapper mapper,
      boolean exactlyOnce) {
    this.registry =
        ViewRegistry.of(
            DifferentialViews.definitions(topic), new ViewSerdes(mapper), applicationId);
    StreamsBuilder builder = new StreamsBuilder();
    new ViewTopologyBuilder(
            builder,
            new RecordRules(EventTimeBounds.STANDARD, false, RecordDrops.NONE),
            this.handles)
        .addAll(this.registry);
    builder.stream(commits, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
        .process(() -> new CommitRequests(this.abortArmed));
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve(applicationId).toString());
    config.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Duration.ofDays(1).toMillis());
    config.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
    config.put("consumer.auto.offset.reset", "earliest");
    if (exactlyOnce) {
      config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
      config.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Duration.ofMinutes(5).toMillis());
      config.put("producer.transaction.timeout.ms", (int) Duration.ofMinutes(10).toMillis());
      config.put(
          FilteringClientSupplier.TRANSACTION_COMMITS_CONFIG, this.handles.transactionCommits());
    }
    this.streams =
        new KafkaStreams(
            builder.build(), config, new FilteringClientSupplier(new DefaultKafkaClientSupplier()));
    this.streams.setGlobalStateRestoreListener(this.handles);
    this.streams.setStandbyUpdateListener(this.handles);
    this.streams.setUncaughtExceptionHandler(
        (ex) -> StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD);
    this.stores =
        new LocalStores(
            () -> this.streams,
            LocalReplicas.NONE,
            this.handles,
            this.registry,
            null,
            ReadIsolation.of(config));
  }

  /** Has the next {@value #ABORT} record of the commits topic fail the stream thread. */
  void armAbort() {
    this.abortArmed.set(true);
  }

  /** Whether the armed abort has happened. */
  boolean aborted() {
    return !this.abortArmed.get();
  }

  /** Waits until every table view's last commit includes the record at {@code offset}. */
  void awaitCommitted(long offset) {
    await("every table view committed the step's records")
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                this.registry.all().stream()
                    .filter(view -> view.window() == null)
                    .allMatch(
                        view -> {
                          ReplicaHandle handle = this.handles.handle(view.storeName(), 0);
                          return handle != null && handle.committedOffsets().applied() >= offset;
                        }));
  }

  /** Starts Kafka Streams and waits until it runs with every view's store open. */
  void start() {
    this.streams.start();
    await("Matview's stores open")
        .atMost(Duration.ofSeconds(90))
        .until(
            () ->
                this.streams.state() == KafkaStreams.State.RUNNING
                    && this.registry.all().stream().allMatch(view -> handle(view) != null));
  }

  ViewRegistry registry() {
    return this.registry;
  }

  LocalStores stores() {
    return this.stores;
  }

  /** Waits until every view has applied the record at {@code offset} of its topic. */
  void awaitApplied(long offset) {
    await("every view applied the step's records")
        .atMost(Duration.ofSeconds(60))
        .until(() -> appliedAll(offset));
  }

  /** Whether every view has applied the record at {@code offset} of its topic. */
  boolean appliedAll(long offset) {
    return this.registry.all().stream()
        .allMatch(
            view -> {
              AppliedOffset applied = this.handles.positions().of(view.storeName(), 0);
              return applied != null && applied.applied() >= offset;
            });
  }

  /** Waits until the record cache has written every update to RocksDB, as a commit does. */
  void awaitWritten() {
    await("a commit")
        .atMost(Duration.ofSeconds(60))
        .until(() -> this.registry.all().stream().noneMatch(this::unwritten));
  }

  /** Whether the record cache holds an update of a key or window that RocksDB lacks. */
  boolean anyUnwritten() {
    return this.registry.all().stream().anyMatch(this::unwritten);
  }

  /** Whether the record cache holds an update of a window or session that RocksDB lacks. */
  boolean windowsUnwritten() {
    return this.registry.all().stream().anyMatch(v -> v.window() != null && unwritten(v));
  }

  private boolean unwritten(ResolvedView<?, ?, ?> view) {
    Object handle = handle(view);
    if (handle instanceof ReplicaHandle table) {
      return table.hasUnwritten();
    }
    return handle instanceof WindowHandle<?> windows && windows.hasUnwritten();
  }

  private @Nullable Object handle(ResolvedView<?, ?, ?> view) {
    ViewWindow window = view.window();
    if (window == null) {
      return this.handles.handle(view.storeName(), 0);
    }
    return (window.type() == ViewWindow.Type.SESSION)
        ? this.handles.sessionHandle(view.storeName(), 0)
        : this.handles.windowHandle(view.storeName(), 0);
  }

  @Override
  public void close() {
    this.streams.close(Duration.ofSeconds(30));
    this.streams.cleanUp();
  }

  /**
   * Asks Kafka Streams to commit, which flushes every task's record cache to RocksDB; but at an
   * {@value #ABORT} record, once armed, fails the stream thread, and else goes on without a commit.
   */
  private static final class CommitRequests implements Processor<byte[], byte[], Void, Void> {

    private final AtomicBoolean abortArmed;

    private @Nullable ProcessorContext<Void, Void> context;

    CommitRequests(AtomicBoolean abortArmed) {
      this.abortArmed = abortArmed;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
      this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
      if (record.key() != null && ABORT.equals(new String(record.key(), StandardCharsets.UTF_8))) {
        if (this.abortArmed.compareAndSet(true, false)) {
          throw new IllegalStateException("The test fails the stream thread mid-transaction");
        }
        return;
      }
      if (this.context != null) {
        this.context.commit();
      }
    }
  }
}
