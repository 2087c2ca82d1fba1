package dev.matview.benchmarks.directory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.internals.StreamsMetadataImpl;
import org.jspecify.annotations.Nullable;

/**
 * The metadata of every instance of a large application, as {@code
 * KafkaStreams.metadataForAllStreamsClients()} returns it: each view re-keyed from one source topic
 * into a repartition topic of its own, every partition of each with one active replica and one
 * standby replica on another instance, dealt at random (a fixed seed) and evenly, as Kafka Streams'
 * assignor spreads tasks.
 *
 * <p>An instance is active for the partitions of the source topic that its stateless tasks read
 * (which have no standbys) and for about {@code partitions / instances} partitions of every view's
 * input topic, and standby for about as many others. Each partition's topic is a string of its own,
 * as when Kafka decodes an assignment, so that comparing it with a view's topic reads its
 * characters.
 */
final class AssignmentMetadata {

  /** The application id that prefixes the repartition topics. */
  static final String APPLICATION_ID = "matview-sample";

  /** The topic that every view reads. */
  static final String SOURCE_TOPIC = "orders";

  private static final List<String> SAMPLE_VIEWS =
      List.of("orders-per-customer", "revenue-per-customer", "orders-per-customer-per-minute");

  private AssignmentMetadata() {}

  /** The input topics of {@code views} views: the sample's three first, then more of their kind. */
  static List<String> inputTopics(int views) {
    List<String> topics = new ArrayList<>();
    for (int view = 0; view < views; view++) {
      String name = (view < SAMPLE_VIEWS.size()) ? SAMPLE_VIEWS.get(view) : "view-" + (view + 1);
      topics.add(APPLICATION_ID + "-" + name + "-repartition");
    }
    return topics;
  }

  /**
   * The metadata of {@code instances} instances, every topic of {@code partitions} partitions, with
   * the input topics of {@code views} views.
   */
  static List<StreamsMetadata> of(int instances, int partitions, int views) {
    if (instances < 2 || partitions < 1 || views < 1) {
      throw new IllegalArgumentException(
          "Needs 2 instances or more (a standby lives apart from its active), 1 partition and 1"
              + " view, not "
              + instances
              + ", "
              + partitions
              + " and "
              + views);
    }
    Random random = new Random(42);
    List<Set<TopicPartition>> actives = sets(instances);
    List<Set<TopicPartition>> standbys = sets(instances);
    List<Set<String>> stores = sets(instances);
    List<Set<String>> standbyStores = sets(instances);
    deal(SOURCE_TOPIC, partitions, random, actives, null);
    List<String> topics = inputTopics(views);
    for (String topic : topics) {
      deal(topic, partitions, random, actives, standbys);
    }
    for (int instance = 0; instance < instances; instance++) {
      for (String topic : topics) {
        String store = topic.substring(APPLICATION_ID.length() + 1, topic.lastIndexOf('-'));
        if (actives.get(instance).stream().anyMatch(partition -> partition.topic().equals(topic))) {
          stores.get(instance).add(store);
        }
        if (standbys.get(instance).stream()
            .anyMatch(partition -> partition.topic().equals(topic))) {
          standbyStores.get(instance).add(store);
        }
      }
    }
    List<StreamsMetadata> metadata = new ArrayList<>(instances);
    for (int instance = 0; instance < instances; instance++) {
      metadata.add(
          new StreamsMetadataImpl(
              new HostInfo("matview-" + instance + ".matview.svc.cluster.local", 8080),
              stores.get(instance),
              actives.get(instance),
              standbyStores.get(instance),
              standbys.get(instance)));
    }
    return Collections.unmodifiableList(metadata);
  }

  /**
   * Deals the partitions of {@code topic} at random, the same number to every instance (one more to
   * some), and when {@code standbys} is given a standby of each to another instance at random.
   */
  private static void deal(
      String topic,
      int partitions,
      Random random,
      List<Set<TopicPartition>> actives,
      @Nullable List<Set<TopicPartition>> standbys) {
    int instances = actives.size();
    List<Integer> order = new ArrayList<>(partitions);
    for (int partition = 0; partition < partitions; partition++) {
      order.add(partition);
    }
    Collections.shuffle(order, random);
    for (int n = 0; n < partitions; n++) {
      int partition = order.get(n);
      int active = n % instances;
      actives.get(active).add(new TopicPartition(new String(topic), partition));
      if (standbys != null) {
        int standby = (active + 1 + random.nextInt(instances - 1)) % instances;
        standbys.get(standby).add(new TopicPartition(new String(topic), partition));
      }
    }
  }

  private static <T> List<Set<T>> sets(int count) {
    List<Set<T>> sets = new ArrayList<>(count);
    for (int n = 0; n < count; n++) {
      sets.add(new HashSet<>());
    }
    return sets;
  }
}
