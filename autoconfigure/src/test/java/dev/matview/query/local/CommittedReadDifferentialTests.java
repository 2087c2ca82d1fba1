package dev.matview.query.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.query.local.DifferentialRecords.Input;
import dev.matview.topology.ResolvedView;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * The differential test of reads of committed state under exactly-once: random records go through
 * Matview's topology in a real Kafka Streams (exactly_once_v2, real RocksDB and record cache) and
 * through the same views in the DSL on Kafka Streams' test driver. After a commit, the table views'
 * committed lookups and scans answer what the DSL holds; while a transaction is open, and through
 * its abort (the stream thread fails mid-transaction, its stores are wiped and restored from their
 * changelogs, its records processed again), they answer what the last commit left, every time,
 * while reads of uncommitted state answer what the DSL holds.
 *
 * <p>Each run prints its seed; {@code -Ddifferential.seed=<seed>} replays one.
 */
class CommittedReadDifferentialTests {

  private static final int RECORDS_PER_STEP = 40;

  private static EmbeddedKafkaKraftBroker broker;

  private final JsonMapper mapper = JsonMapper.builder().build();

  @TempDir Path stateDir;

  @BeforeAll
  static void startBroker() {
    broker = new EmbeddedKafkaKraftBroker(1, 1);
    broker.brokerProperties(
        Map.of(
            "transaction.state.log.replication.factor", "1",
            "transaction.state.log.min.isr", "1"));
    broker.afterPropertiesSet();
  }

  @AfterAll
  static void stopBroker() {
    broker.destroy();
  }

  @Test
  void committedReadsAnswerTheLastCommitThroughOpenAndAbortedTransactions() throws Exception {
    String replay = System.getProperty("differential.seed");
    long seed = (replay != null) ? Long.parseLong(replay) : new SecureRandom().nextLong();
    System.out.println(
        "Committed-read differential run: seed " + seed + " (replay with -Ddifferential.seed=)");
    Random random = new Random(seed);
    String suffix = Long.toHexString(seed);
    String topic = "committed-items-" + suffix;
    String commits = "committed-commits-" + suffix;
    broker.addTopics(new NewTopic(topic, 1, (short) 1), new NewTopic(commits, 1, (short) 1));
    long start =
        Instant.now().minus(Duration.ofDays(2)).toEpochMilli()
            - random.nextLong(Duration.ofHours(12).toMillis());
    DifferentialRecords records = new DifferentialRecords(random, this.mapper, start);
    DslViews dsl = new DslViews(this.mapper);
    try (MatviewRun matview =
            new MatviewRun(
                broker.getBrokersAsString(),
                this.stateDir,
                topic,
                commits,
                "committed-" + suffix,
                this.mapper,
                true);
        TopologyTestDriver driver = dsl(dsl, topic);
        Producer<String, String> producer =
            new KafkaProducer<>(
                KafkaTestUtils.producerProps(broker),
                new StringSerializer(),
                new StringSerializer())) {
      matview.start();
      TestInputTopic<String, String> input =
          driver.createInputTopic(topic, new StringSerializer(), new StringSerializer());
      MatviewReads reads = new MatviewReads(matview.stores(), this.mapper);
      Step step = new Step(matview, reads, dsl, driver, start, records, random, seed);

      long first = step.send(producer, input, topic);
      producer.send(new ProducerRecord<>(commits, "commit", "")).get();
      matview.awaitCommitted(first);
      step.assertUncommittedAsDsl("after the first commit");
      Map<String, Map<String, Map<String, String>>> committed = step.committed();
      assertThat(committed)
          .as("seed %d: committed reads after a commit answer what the DSL holds", seed)
          .isEqualTo(step.uncommittedTables());

      long second = step.send(producer, input, topic);
      step.assertUncommittedAsDsl("with a transaction open");
      assertThat(step.committed())
          .as("seed %d: committed reads with a transaction open answer the last commit", seed)
          .isEqualTo(committed);
      assertThat(step.uncommittedTables())
          .as("seed %d: the open transaction changed some table view", seed)
          .isNotEqualTo(committed);

      matview.armAbort();
      producer.send(new ProducerRecord<>(commits, MatviewRun.ABORT, "")).get();
      int readsDuringAbort = 0;
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (!(matview.aborted() && matview.appliedAll(second) && step.uncommittedServed())) {
        assertThat(System.nanoTime())
            .as("the aborted transaction's records applied again")
            .isLessThan(deadline);
        Map<String, Map<String, Map<String, String>>> during = step.committedIfServed();
        if (during != null) {
          readsDuringAbort++;
          assertThat(during)
              .as("seed %d: committed reads through the abort answer the last commit", seed)
              .isEqualTo(committed);
        }
      }
      assertThat(readsDuringAbort).as("committed reads made through the abort").isPositive();
      step.assertUncommittedAsDsl("after the abort, its records applied again");
      assertThat(step.committed())
          .as("seed %d: committed reads after the abort answer the last commit", seed)
          .isEqualTo(committed);

      producer.send(new ProducerRecord<>(commits, "commit", "")).get();
      matview.awaitCommitted(second);
      step.assertUncommittedAsDsl("after the second commit");
      assertThat(step.committed())
          .as("seed %d: committed reads after the second commit answer what the DSL holds", seed)
          .isEqualTo(step.uncommittedTables());
    }
  }

  private TopologyTestDriver dsl(DslViews dsl, String topic) {
    StreamsBuilder builder = new StreamsBuilder();
    dsl.addAll(builder, topic);
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, "committed-dsl");
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    config.put(StreamsConfig.STATE_DIR_CONFIG, this.stateDir.resolve("dsl").toString());
    return new TopologyTestDriver(builder.build(), config);
  }

  /** One run's parts, and the reads and sends its steps repeat. */
  private record Step(
      MatviewRun matview,
      MatviewReads reads,
      DslViews dsl,
      TopologyTestDriver driver,
      long start,
      DifferentialRecords records,
      Random random,
      long seed) {

    /** Sends a step's records to both, waits until Matview applied them, and answers the last. */
    long send(Producer<String, String> producer, TestInputTopic<String, String> input, String topic)
        throws Exception {
      long last = -1;
      for (Input record : this.records.next(RECORDS_PER_STEP)) {
        last =
            producer
                .send(
                    new ProducerRecord<>(
                        topic, null, record.timestamp(), record.key(), record.value()))
                .get()
                .offset();
        input.pipeInput(record.key(), record.value(), record.timestamp());
      }
      this.matview.awaitApplied(last);
      return last;
    }

    void assertUncommittedAsDsl(String when) {
      assertThat(
              ReadDifferences.compare(
                  this.matview.registry(),
                  this.reads,
                  this.dsl,
                  this.driver,
                  this.start,
                  this.records.streamTime(),
                  this.random))
          .as("seed %d, %s: read paths that differ from the DSL's stores", this.seed, when)
          .isEmpty();
    }

    /** Every table view's committed lookups and scan, by view and path. */
    Map<String, Map<String, Map<String, String>>> committed() {
      Map<String, Map<String, Map<String, String>>> answers = new LinkedHashMap<>();
      for (ResolvedView<String, ?, ?> view : tables()) {
        answers.put(view.name(), this.reads.committed(view, DifferentialRecords.keys()));
      }
      return answers;
    }

    /** As {@link #committed()}, or {@code null} while a store is not served. */
    Map<String, Map<String, Map<String, String>>> committedIfServed() {
      try {
        return committed();
      } catch (ViewUnavailableException | InvalidStateStoreException ex) {
        return null;
      }
    }

    /** Whether every view answers its read paths again. */
    boolean uncommittedServed() {
      try {
        ReadDifferences.compare(
            this.matview.registry(),
            this.reads,
            this.dsl,
            this.driver,
            this.start,
            this.records.streamTime(),
            new Random(0));
        return true;
      } catch (ViewUnavailableException | InvalidStateStoreException ex) {
        return false;
      }
    }

    /** Every table view's uncommitted lookups, named as {@link #committed()} names its paths. */
    Map<String, Map<String, Map<String, String>>> uncommittedTables() {
      Map<String, Map<String, Map<String, String>>> answers = new LinkedHashMap<>();
      Instant any = Instant.EPOCH;
      for (ResolvedView<String, ?, ?> view : tables()) {
        Map<String, Map<String, String>> read =
            this.reads.read(view, DifferentialRecords.keys(), any, any, new Random(0));
        Map<String, Map<String, String>> named = new LinkedHashMap<>();
        named.put("committed key lookups", read.get("key lookups"));
        named.put("committed scan", read.get("scan in one slice"));
        answers.put(view.name(), named);
      }
      return answers;
    }

    @SuppressWarnings("unchecked")
    private List<ResolvedView<String, ?, ?>> tables() {
      return this.matview.registry().all().stream()
          .filter(view -> view.window() == null)
          .<ResolvedView<String, ?, ?>>map(view -> (ResolvedView<String, ?, ?>) view)
          .toList();
    }
  }
}
