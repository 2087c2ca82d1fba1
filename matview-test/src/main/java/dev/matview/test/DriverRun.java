package dev.matview.test;

import dev.matview.deadletter.DeadLetterListener;
import dev.matview.deadletter.DeadLetterPublisher;
import dev.matview.deadletter.DeadLetters;
import dev.matview.deadletter.ViewLocator;
import dev.matview.topology.EventTimeBounds;
import dev.matview.topology.RecordDrops;
import dev.matview.topology.RecordRules;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewTopologyBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * What a {@link ViewTestDriver} runs its views on: their topology, built with the starter's record
 * rules, on Kafka Streams' {@link TopologyTestDriver} with the starter's dead-letter handlers, a
 * state directory of its own, deleted on close, and a wall clock that moves only when told.
 */
final class DriverRun implements AutoCloseable {

  /** Largest dead letter written, in bytes, as {@code matview.dead-letter.max-size} defaults. */
  private static final int MAX_DEAD_LETTER_BYTES = 1024 * 1024;

  private final DriverClock clock;

  private final MockProducer<byte[], byte[]> deadLetters;

  private final TemporaryDirectory stateDir;

  private final TopologyTestDriver driver;

  private boolean closed;

  private DriverRun(
      DriverClock clock,
      MockProducer<byte[], byte[]> deadLetters,
      TemporaryDirectory stateDir,
      TopologyTestDriver driver) {
    this.clock = clock;
    this.deadLetters = deadLetters;
    this.stateDir = stateDir;
    this.driver = driver;
  }

  /**
   * Builds the topology of {@code registry}'s views for {@code applicationId} and starts Kafka
   * Streams' test driver on it, its wall clock at {@code wallClockTime}, accepting event times up
   * to {@code maxEventTimeAhead} after it, late records dead letters when {@code
   * lateRecordsAsDeadLetters}.
   *
   * @throws dev.matview.topology.InvalidViewException when a view cannot work, as at start-up
   */
  static DriverRun start(
      ViewRegistry registry,
      String applicationId,
      Instant wallClockTime,
      Duration maxEventTimeAhead,
      boolean lateRecordsAsDeadLetters) {
    DriverClock clock = new DriverClock(wallClockTime);
    RecordRules rules =
        new RecordRules(
            new EventTimeBounds(maxEventTimeAhead, clock),
            lateRecordsAsDeadLetters,
            RecordDrops.NONE);
    StreamsBuilder streams = new StreamsBuilder();
    new ViewTopologyBuilder(streams, rules).addAll(registry);
    MockProducer<byte[], byte[]> producer =
        new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    TemporaryDirectory stateDir = TemporaryDirectory.create();
    try {
      TopologyTestDriver driver =
          new TopologyTestDriver(
              streams.build(), config(registry, applicationId, producer, stateDir), wallClockTime);
      return new DriverRun(clock, producer, stateDir, driver);
    } catch (RuntimeException ex) {
      stateDir.close();
      throw ex;
    }
  }

  private static Properties config(
      ViewRegistry registry,
      String applicationId,
      MockProducer<byte[], byte[]> producer,
      TemporaryDirectory stateDir) {
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "test-driver:9092");
    config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.path().toString());
    DeadLetterPublisher publisher =
        new DeadLetterPublisher(
            DeadLetters.defaultTopic(applicationId),
            () -> producer,
            DeadLetterListener.NONE,
            MAX_DEAD_LETTER_BYTES);
    new DeadLetters(ViewLocator.of(registry), publisher).installIn(config);
    return config;
  }

  /** Every dead letter the views wrote, in the order they were written. */
  List<DeadLetterRecord> deadLetters() {
    return this.deadLetters.history().stream().map(DeadLetterRecord::new).toList();
  }

  /** The wall-clock time. */
  Instant wallClockTime() {
    return this.clock.instant();
  }

  /** Moves the wall-clock time {@code duration}, not negative, ahead. */
  void advanceWallClockTime(Duration duration) {
    requireOpen();
    this.clock.advance(duration);
    this.driver.advanceWallClockTime(duration);
  }

  /** Kafka Streams' test driver, while it is open. */
  TopologyTestDriver topologyTestDriver() {
    requireOpen();
    return this.driver;
  }

  /**
   * Refuses the use of a closed driver.
   *
   * @throws IllegalStateException once closed
   */
  void requireOpen() {
    if (this.closed) {
      throw new IllegalStateException(
          "The ViewTestDriver is closed: build a new one for each test, and close it after");
    }
  }

  /** Closes Kafka Streams' test driver and deletes the views' stores. */
  @Override
  public void close() {
    if (this.closed) {
      return;
    }
    this.closed = true;
    try {
      this.driver.close();
    } finally {
      this.stateDir.close();
    }
  }
}
