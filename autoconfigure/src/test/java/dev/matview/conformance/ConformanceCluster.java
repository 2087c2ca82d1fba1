package dev.matview.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.conformance.ConformanceApp.Event;
import dev.matview.processes.http.HttpProbe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * One in-process KRaft broker and up to two instances of {@link ConformanceApp} on it: the first
 * starts with the broker, the second joins later and takes over some partitions.
 */
final class ConformanceCluster implements AutoCloseable {

  static final String APPLICATION_ID = "conformance-it";

  private final JsonMapper mapper = JsonMapper.builder().build();

  private final Path stateDirs;

  private final EmbeddedKafkaKraftBroker broker;

  private final List<Instance> instances = new ArrayList<>();

  ConformanceCluster(Path stateDirs) {
    this.stateDirs = stateDirs;
    this.broker =
        new EmbeddedKafkaKraftBroker(
            1, DataSet.PARTITIONS, DataSet.TOPICS.keySet().toArray(String[]::new));
    this.broker.afterPropertiesSet();
  }

  /** Starts one more instance and waits until Kafka Streams runs on every instance. */
  Instance start() {
    int n = this.instances.size() + 1;
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("spring.main.banner-mode", "off");
    settings.put("server.port", "0");
    settings.put("spring.kafka.bootstrap-servers", this.broker.getBrokersAsString());
    settings.put("spring.kafka.streams.application-id", APPLICATION_ID);
    settings.put(
        "spring.kafka.streams.state-dir", this.stateDirs.resolve("instance-" + n).toString());
    settings.put("spring.kafka.streams.properties.commit.interval.ms", "100");
    settings.put("spring.kafka.admin.auto-create", "true");
    settings.put("matview.advertised-host", "localhost");
    settings.put("matview.forwarding.timeout", "5s");
    settings.put("matview.rocksdb.total-memory", "32MB");
    ConfigurableApplicationContext context =
        new SpringApplicationBuilder(ConformanceApp.class)
            .run(
                settings.entrySet().stream()
                    .map(setting -> "--" + setting.getKey() + "=" + setting.getValue())
                    .toArray(String[]::new));
    Instance instance =
        new Instance(
            "instance-" + n,
            context,
            HttpProbe.localhost(((WebServerApplicationContext) context).getWebServer().getPort()));
    this.instances.add(instance);
    await("Kafka Streams runs on every instance and each knows all " + n)
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              for (Instance each : this.instances) {
                assertThat(each.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
                assertThat(each.streams().metadataForAllStreamsClients()).hasSize(n);
              }
            });
    return instance;
  }

  List<Instance> instances() {
    return List.copyOf(this.instances);
  }

  /**
   * Publishes every record of {@code data} to the partition it names, in order, with the record
   * timestamp set to its event time, and waits until the application has committed every record of
   * the source topics and of the repartition topics of {@code groupedViews} (which must be all
   * repartition topics there are).
   */
  void publish(DataSet data, List<String> groupedViews) throws Exception {
    Map<String, Object> config = KafkaTestUtils.producerProps(this.broker.getBrokersAsString());
    config.put("enable.idempotence", "true");
    config.put("acks", "all");
    try (Producer<byte[], byte[]> producer =
        new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (Map.Entry<String, List<List<Event>>> topic : data.records().entrySet()) {
        KeyKind keyKind = DataSet.TOPICS.get(topic.getKey());
        for (int p = 0; p < DataSet.PARTITIONS; p++) {
          for (Event event : topic.getValue().get(p)) {
            Object key = DataSet.field(keyKind, event);
            producer.send(
                new ProducerRecord<>(
                    topic.getKey(),
                    p,
                    event.at().toEpochMilli(),
                    keyKind.bytes(key),
                    this.mapper.writeValueAsBytes(event)));
          }
        }
      }
      producer.flush();
    }
    try (Admin admin =
        Admin.create(Map.of("bootstrap.servers", this.broker.getBrokersAsString()))) {
      await("the application has committed every record it reads")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(() -> assertThat(uncommitted(admin, groupedViews)).isEmpty());
    }
  }

  /** The partitions of the source and repartition topics whose records are not all committed. */
  private Map<TopicPartition, String> uncommitted(Admin admin, List<String> groupedViews)
      throws Exception {
    List<String> repartitionTopics =
        admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
            .filter(name -> name.startsWith(APPLICATION_ID) && name.endsWith("-repartition"))
            .toList();
    assertThat(repartitionTopics)
        .as("repartition topics")
        .containsExactlyInAnyOrderElementsOf(
            groupedViews.stream()
                .map(view -> APPLICATION_ID + "-" + view + "-repartition")
                .toList());
    List<String> topics = new ArrayList<>(DataSet.TOPICS.keySet());
    topics.addAll(repartitionTopics);
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (String topic : topics) {
      for (int p = 0; p < DataSet.PARTITIONS; p++) {
        latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
      }
    }
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
        admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
    Map<TopicPartition, OffsetAndMetadata> committed =
        admin
            .listConsumerGroupOffsets(APPLICATION_ID)
            .partitionsToOffsetAndMetadata()
            .get(30, TimeUnit.SECONDS);
    Map<TopicPartition, String> behind = new LinkedHashMap<>();
    ends.forEach(
        (partition, end) -> {
          OffsetAndMetadata offset = committed.get(partition);
          long at = offset != null ? offset.offset() : 0;
          if (at < end.offset()) {
            behind.put(partition, at + " of " + end.offset());
          }
        });
    return behind;
  }

  /**
   * How many dead letters there are per view and reason (as {@code "view reason"}), read from the
   * start of the dead-letter topic to its end.
   */
  Map<String, Long> deadLetters() {
    Map<String, Object> config =
        KafkaTestUtils.consumerProps(this.broker, "conformance-dlq", false);
    Map<String, Long> counts = new TreeMap<>();
    try (Consumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(APPLICATION_ID + "-dlq").stream()
              .map(info -> new TopicPartition(info.topic(), info.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      await("the dead-letter topic read to its end")
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                for (ConsumerRecord<byte[], byte[]> record :
                    consumer.poll(Duration.ofMillis(200))) {
                  counts.merge(
                      header(record, "matview.view") + " " + header(record, "matview.reason"),
                      1L,
                      Long::sum);
                }
                return partitions.stream()
                    .allMatch(partition -> consumer.position(partition) >= ends.get(partition));
              });
    }
    return counts;
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header != null ? new String(header.value(), StandardCharsets.UTF_8) : "";
  }

  @Override
  public void close() {
    this.instances.forEach(instance -> instance.context().close());
    this.broker.destroy();
  }

  /** One instance of the application and an HTTP client for it. */
  record Instance(String name, ConfigurableApplicationContext context, HttpProbe http) {

    /** The {@code host:port} under which the instance names itself in answers. */
    String address() {
      return "localhost:" + ((WebServerApplicationContext) this.context).getWebServer().getPort();
    }

    KafkaStreams streams() {
      return this.context.getBean(StreamsBuilderFactoryBean.class).getKafkaStreams();
    }

    /** The {@code host:port} of the instance that owns {@code key} of {@code view}. */
    String owner(ViewKind view, Object key) {
      KeyQueryMetadata metadata =
          streams().queryMetadataForKey(view.name(), key, view.keyKind().serializer());
      return metadata.activeHost().host() + ":" + metadata.activeHost().port();
    }
  }
}
