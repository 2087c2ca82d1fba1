package dev.matview.query.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.query.local.DifferentialRecords.Input;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * A differential test of every read path of this instance's stores, the {@link LocalStores} that
 * every HTTP lookup, batch, window lookup, change stream's windows, scan page and streamed scan
 * slice of a local partition runs: random records (out of order, later than grace, tombstones, a
 * custom aggregation's removals, forty keys over several 12-hour segments) go through Matview's
 * topology in a real Kafka Streams on a real broker, with real RocksDB and Kafka's record cache,
 * and through the same views written in the DSL on Kafka Streams' test driver. Matview commits only
 * when the test asks it to: never before the first step's reads, always before the middle step's,
 * at random otherwise, so that its cache holds what RocksDB lacks at most reads. After each step
 * every read path of every view (table, tumbling, hopping, session; count, sum, min, max, latest,
 * custom) answers what the DSL's store holds, each entry once.
 *
 * <p>Each run prints its seed. {@code -Ddifferential.seed=<seed>} replays one run; {@code
 * -Ddifferential.rounds=<n>} makes n runs of fresh seeds, the long form (CONTRIBUTING, Checks).
 */
class DifferentialReadTests {

  private static final int STEPS = 6;

  private static final int RECORDS_PER_STEP = 40;

  private static final int COMMIT_PERCENT = 40;

  private static EmbeddedKafkaKraftBroker broker;

  private final JsonMapper mapper = JsonMapper.builder().build();

  @TempDir Path stateDir;

  @BeforeAll
  static void startBroker() {
    broker = new EmbeddedKafkaKraftBroker(1, 1);
    broker.afterPropertiesSet();
  }

  @AfterAll
  static void stopBroker() {
    broker.destroy();
  }

  @Test
  void everyReadPathAnswersWhatTheDslStoresHold() {
    String replay = System.getProperty("differential.seed");
    int rounds = Integer.getInteger("differential.rounds", 1);
    if (replay != null) {
      run(0, Long.parseLong(replay));
      return;
    }
    SecureRandom seeds = new SecureRandom();
    for (int round = 0; round < rounds; round++) {
      run(round, seeds.nextLong());
    }
  }

  private void run(int round, long seed) {
    System.out.println(
        "Differential run "
            + round
            + ": seed "
            + seed
            + " (replay with -Ddifferential.seed="
            + seed
            + ")");
    Random random = new Random(seed);
    String suffix = round + "-" + Long.toHexString(seed);
    String topic = "items-" + suffix;
    String commits = "commits-" + suffix;
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
                "differential-" + suffix,
                this.mapper);
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
      int stepsWithCachedWindows = 0;
      for (int step = 0; step < STEPS; step++) {
        long last = -1;
        for (Input record : records.next(RECORDS_PER_STEP)) {
          last =
              producer
                  .send(
                      new ProducerRecord<>(
                          topic, null, record.timestamp(), record.key(), record.value()))
                  .get()
                  .offset();
          input.pipeInput(record.key(), record.value(), record.timestamp());
        }
        matview.awaitApplied(last);
        boolean commit = step == STEPS / 2 || (step > 0 && random.nextInt(100) < COMMIT_PERCENT);
        if (commit) {
          producer.send(new ProducerRecord<>(commits, "commit", "")).get();
          matview.awaitWritten();
        }
        boolean cached = matview.anyUnwritten();
        stepsWithCachedWindows += matview.windowsUnwritten() ? 1 : 0;
        List<String> failures =
            ReadDifferences.compare(
                matview.registry(), reads, dsl, driver, start, records.streamTime(), random);
        assertThat(failures)
            .as(
                "seed %d, step %d (%s, the record cache %s): read paths that differ from the DSL's"
                    + " stores (replay with -Ddifferential.seed=%d)",
                seed,
                step,
                commit ? "after a commit" : "no commit",
                cached ? "holding windows or keys RocksDB lacks" : "written",
                seed)
            .isEmpty();
      }
      assertThat(stepsWithCachedWindows)
          .as("steps read while the record cache held windows RocksDB lacked")
          .isPositive();
    } catch (Exception ex) {
      throw new IllegalStateException("Differential run of seed " + seed + " failed", ex);
    }
  }

  private TopologyTestDriver dsl(DslViews dsl, String topic) {
    StreamsBuilder builder = new StreamsBuilder();
    dsl.addAll(builder, topic);
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, "differential-dsl");
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    config.put(StreamsConfig.STATE_DIR_CONFIG, this.stateDir.resolve("dsl").toString());
    return new TopologyTestDriver(builder.build(), config);
  }
}
