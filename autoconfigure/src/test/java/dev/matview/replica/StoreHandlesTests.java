package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.matview.topology.RecordRules;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.topology.ViewTopologyBuilder;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tests for {@link StoreHandles}: a table view's store partition registers when Kafka Streams opens
 * it and leaves when Kafka Streams closes it, on real RocksDB run by Kafka Streams' {@link
 * TopologyTestDriver}; and the readiness that restore and standby callbacks and lookups set.
 */
class StoreHandlesTests {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static final TopicPartition CHANGELOG = new TopicPartition("app-clicks-changelog", 0);

  @TempDir Path stateDir;

  private final JsonMapper mapper = JsonMapper.builder().build();

  private final ViewRegistry registry =
      ViewRegistry.of(
          Map.<String, ViewDefinition<?, ?, ?>>of(
              "clicks", Views.from("clicks", Click.class).count()),
          new ViewSerdes(this.mapper),
          "app");

  private final StoreHandles handles = new StoreHandles();

  @Test
  void holdsTheOpenStoreOfATableViewUntilKafkaStreamsClosesIt() {
    StreamsBuilder builder = new StreamsBuilder();
    new ViewTopologyBuilder(builder, RecordRules.STANDARD, this.handles).addAll(this.registry);
    List<String> opened = new ArrayList<>();
    this.handles.whenOpened((store, partition) -> opened.add(store + "/" + partition));
    assertThat(this.handles.handle("clicks", 0)).isNull();
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config())) {
      assertThat(opened).containsExactly("clicks/0");
      ReplicaHandle handle = this.handles.handle("clicks", 0);
      assertThat(handle).isNotNull();
      assertThat(handle.partition()).isZero();
      assertThat(handle.store()).isInstanceOf(TimestampedBytesStore.class);
      assertThat(this.handles.handle("clicks", 1)).isNull();
      assertThat(this.handles.handle("other", 0)).isNull();
      TestInputTopic<String, String> clicks =
          driver.createInputTopic("clicks", new StringSerializer(), new StringSerializer());
      clicks.pipeInput("page-1", this.mapper.writeValueAsString(new Click("page-1")), T0);
      clicks.pipeInput("page-1", this.mapper.writeValueAsString(new Click("page-1")), T0);

      ResolvedView<?, ?, ?> view = this.registry.find("clicks").orElseThrow();
      assertThat(handle.store())
          .as("Matview's RocksDB store, read without a monitor")
          .isInstanceOf(RocksDBKeyValueStore.class);
      byte[] stored = handle.get(keyBytes(view, "page-1"));
      assertThat(stored).isEqualTo(handle.store().get(Bytes.wrap(keyBytes(view, "page-1"))));
      assertThat(handle.get(keyBytes(view, "page-2"))).isNull();
      assertThat(stored).as("Kafka Streams' timestamp, then the count").hasSize(16);
      Object count =
          view.aggregateSerde()
              .deserializer()
              .deserialize("clicks", Arrays.copyOfRange(stored, 8, stored.length));
      assertThat(count).isEqualTo(2L);
      assertThat(driver.<String, Object>getTimestampedKeyValueStore("clicks").get("page-1").value())
          .as("the same store, as Kafka Streams reads it")
          .isEqualTo(2L);
    }
    assertThat(this.handles.handle("clicks", 0)).as("gone once Kafka Streams closed it").isNull();
  }

  @Test
  void windowedAndSessionStoresTellTheirOpeningAndAnswerKafkaStreamsAsBefore() throws Exception {
    ViewRegistry windowed =
        ViewRegistry.of(
            Map.<String, ViewDefinition<?, ?, ?>>of(
                "per-minute",
                Views.from("clicks", Click.class)
                    .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
                    .count(),
                "sessions",
                Views.from("clicks", Click.class)
                    .windowedBy(ViewWindow.session(Duration.ofMinutes(5)))
                    .count()),
            new ViewSerdes(this.mapper),
            "app");
    StreamsBuilder builder = new StreamsBuilder();
    new ViewTopologyBuilder(builder, RecordRules.STANDARD, this.handles).addAll(windowed);
    List<String> opened = new ArrayList<>();
    this.handles.whenOpened((store, partition) -> opened.add(store + "/" + partition));
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config())) {
      assertThat(opened).containsExactlyInAnyOrder("per-minute/0", "sessions/0");
      TestInputTopic<String, String> clicks =
          driver.createInputTopic("clicks", new StringSerializer(), new StringSerializer());
      String click = this.mapper.writeValueAsString(new Click("page-1"));
      clicks.pipeInput("page-1", click, T0.plusSeconds(10));
      clicks.pipeInput("page-1", click, T0.plusSeconds(70));
      clicks.pipeInput("page-1", click, T0.plusSeconds(80));

      List<Object> counts = new ArrayList<>();
      driver
          .<String, Object>getTimestampedWindowStore("per-minute")
          .backwardFetch("page-1", T0, T0.plusSeconds(120))
          .forEachRemaining((window) -> counts.add(window.value.value()));
      assertThat(counts)
          .as("newest window first, through a default method")
          .containsExactly(2L, 1L);
      List<Object> sessions = new ArrayList<>();
      driver
          .<String, Object>getSessionStore("sessions")
          .fetch("page-1")
          .forEachRemaining((session) -> sessions.add(session.value));
      assertThat(sessions).containsExactly(3L);
    }
    assertThat(this.handles.handle("per-minute", 0)).as("only tables keep handles").isNull();
  }

  @Test
  void readsUnderWayFinishBeforeTheStoreClosesAndLaterOnesAreRefused() throws Exception {
    StreamsBuilder builder = new StreamsBuilder();
    new ViewTopologyBuilder(builder, RecordRules.STANDARD, this.handles).addAll(this.registry);
    TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config());
    driver
        .createInputTopic("clicks", new StringSerializer(), new StringSerializer())
        .pipeInput("page-1", this.mapper.writeValueAsString(new Click("page-1")), T0);
    ReplicaHandle handle = this.handles.handle("clicks", 0);
    byte[] key = keyBytes(this.registry.find("clicks").orElseThrow(), "page-1");
    AtomicLong answered = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    AtomicReference<Throwable> unexpected = new AtomicReference<>();
    AtomicBoolean closed = new AtomicBoolean();
    List<Thread> readers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Thread reader =
          new Thread(
              () -> {
                while (!closed.get() || refused.get() == 0) {
                  try {
                    assertThat(handle.get(key)).hasSize(16);
                    answered.incrementAndGet();
                  } catch (InvalidStateStoreException ex) {
                    refused.incrementAndGet();
                    if (closed.get()) {
                      return;
                    }
                  } catch (Throwable ex) {
                    unexpected.set(ex);
                    return;
                  }
                }
              });
      reader.start();
      readers.add(reader);
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> answered.get() > 1000);
    driver.close();
    closed.set(true);
    for (Thread reader : readers) {
      reader.join(Duration.ofSeconds(30).toMillis());
      assertThat(reader.isAlive()).isFalse();
    }
    assertThat(unexpected.get()).isNull();
    assertThat(refused.get()).as("reads after the close are refused").isPositive();
    assertThatThrownBy(() -> handle.get(key)).isInstanceOf(InvalidStateStoreException.class);
  }

  @Test
  void isReadyOnceItsRestoreEndsAndNotWhileARestoreOrStandbyUpdateRuns() {
    KeyValueStore<Bytes, byte[]> store = Stores.inMemoryKeyValueStore("clicks").get();
    handles.tables().opened("clicks", 0, store);
    ReplicaHandle handle = this.handles.handle("clicks", 0);
    assertThat(handle.ready()).as("opened, not yet known to run").isFalse();
    handles.onRestoreStart(CHANGELOG, "clicks", 0, 10);
    assertThat(handle.ready()).isFalse();
    handles.onRestoreEnd(CHANGELOG, "clicks", 10);
    assertThat(handle.ready()).isTrue();
    handles.onUpdateStart(CHANGELOG, "clicks", 10);
    assertThat(handle.ready()).as("moved to a standby").isFalse();
    handles.onRestoreEnd(new TopicPartition("app-clicks-changelog", 1), "clicks", 0);
    assertThat(handle.ready()).as("another partition's restore").isFalse();
  }

  @Test
  void aLookupMarksItReadyOnlyIfNothingChangedSinceItLooked() {
    handles.tables().opened("clicks", 0, Stores.inMemoryKeyValueStore("clicks").get());
    ReplicaHandle handle = this.handles.handle("clicks", 0);

    long seen = handle.readiness();
    handles.onRestoreStart(CHANGELOG, "clicks", 0, 10);
    handle.markReady(seen);
    assertThat(handle.ready()).as("a restore started after the lookup looked").isFalse();

    seen = handle.readiness();
    handle.markReady(seen);
    assertThat(handle.ready()).isTrue();
    handle.markReady(seen);
    assertThat(handle.ready()).isTrue();
  }

  @Test
  void aStoreClosedAfterAnotherOpenedTheSamePartitionLeavesTheNewOneRegistered() {
    KeyValueStore<Bytes, byte[]> first = Stores.inMemoryKeyValueStore("clicks").get();
    KeyValueStore<Bytes, byte[]> second = Stores.inMemoryKeyValueStore("clicks").get();
    handles.tables().opened("clicks", 3, first);
    handles.tables().opened("clicks", 3, second);
    handles.tables().closed("clicks", 3, first);
    assertThat(this.handles.handle("clicks", 3).store()).isSameAs(second);
    assertThat(this.handles.handle("clicks", 2)).isNull();
    handles.tables().closed("clicks", 3, second);
    assertThat(this.handles.handle("clicks", 3)).isNull();
  }

  @SuppressWarnings("unchecked")
  private static <K> byte[] keyBytes(ResolvedView<K, ?, ?> view, Object key) {
    return view.keySerde().serializer().serialize("clicks", (K) key);
  }

  private Properties config() {
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    config.put(StreamsConfig.STATE_DIR_CONFIG, this.stateDir.toString());
    return config;
  }

  record Click(String page) {}
}
