package dev.matview.query.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.processor.internals.DefaultStreamPartitioner;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.internals.StreamsMetadataImpl;
import org.junit.jupiter.api.Test;

/**
 * The replicas of a view's partitions are read from Kafka Streams' metadata values, and a key is
 * placed in the partition Kafka Streams' default partitioner gives it.
 */
class ViewReplicasTests {

  static final String TOPIC = "app-per-shop-repartition";

  static final HostInfo A = new HostInfo("a", 8080);

  static final HostInfo B = new HostInfo("b", 8080);

  static final HostInfo C = new HostInfo("c", 8081);

  @Test
  void namesTheActiveAndStandbyReplicasOfEveryPartitionOfTheInputTopic() {
    ViewReplicas replicas =
        ViewReplicas.of(
            TOPIC,
            List.of(
                instance(A, Set.of(0, 1), Set.of(2)),
                instance(B, Set.of(2), Set.of(0, 3)),
                instance(C, Set.of(3), Set.of(0))));
    assertThat(replicas.partitions()).isEqualTo(4);
    assertThat(replicas.complete()).isTrue();
    assertThat(replicas.inputTopic()).isEqualTo(TOPIC);
    assertThat(replicas.replicas(0))
        .isEqualTo(
            new KeyReplicas(
                new PartitionOwner(0, A),
                List.of(new PartitionOwner(0, B), new PartitionOwner(0, C))));
    assertThat(replicas.replicas(1))
        .isEqualTo(new KeyReplicas(new PartitionOwner(1, A), List.of()));
    assertThat(replicas.replicas(2))
        .isEqualTo(new KeyReplicas(new PartitionOwner(2, B), List.of(new PartitionOwner(2, A))));
    assertThat(replicas.replicas(3))
        .isEqualTo(new KeyReplicas(new PartitionOwner(3, C), List.of(new PartitionOwner(3, B))));
    assertThat(replicas.replicas(4)).isNull();
    assertThat(replicas.owners())
        .containsExactly(
            new PartitionOwner(0, A),
            new PartitionOwner(1, A),
            new PartitionOwner(2, B),
            new PartitionOwner(3, C));
  }

  @Test
  void ignoresThePartitionsOfOtherTopics() {
    StreamsMetadata other =
        new StreamsMetadataImpl(
            B,
            Set.of("other"),
            Set.of(new TopicPartition("orders", 0), new TopicPartition("orders", 5)),
            Set.of("other"),
            Set.of(new TopicPartition("orders", 1)));
    ViewReplicas replicas =
        ViewReplicas.of(TOPIC, List.of(instance(A, Set.of(0), Set.of()), other));
    assertThat(replicas.partitions()).isOne();
    assertThat(replicas.owners()).containsExactly(new PartitionOwner(0, A));
  }

  @Test
  void isIncompleteWhileAPartitionHasNoActiveReplica() {
    ViewReplicas replicas =
        ViewReplicas.of(
            TOPIC, List.of(instance(A, Set.of(0, 1), Set.of(2)), instance(B, Set.of(3), Set.of())));
    assertThat(replicas.partitions()).as("counted as Kafka Streams counts them").isEqualTo(3);
    assertThat(replicas.complete()).isFalse();
    assertThat(replicas.owners()).isEmpty();
  }

  @Test
  void isIncompleteWhileAnOwnerHasNoAddress() {
    ViewReplicas replicas =
        ViewReplicas.of(
            TOPIC,
            List.of(
                instance(A, Set.of(0), Set.of()),
                instance(HostInfo.unavailable(), Set.of(1), Set.of())));
    assertThat(replicas.complete()).isFalse();
    assertThat(replicas.replicas(1)).isNull();
  }

  @Test
  void namesTheReplicasOfHundredsOfPartitionsWithTheStandbysInTheOrderOfTheInstances() {
    int partitions = 600;
    List<HostInfo> hosts =
        IntStream.range(0, 7).mapToObj((n) -> new HostInfo("host-" + n, 8080)).toList();
    List<Set<Integer>> actives =
        hosts.stream().map((host) -> (Set<Integer>) new HashSet<Integer>()).toList();
    List<Set<Integer>> standbys =
        hosts.stream().map((host) -> (Set<Integer>) new HashSet<Integer>()).toList();
    Random random = new Random(7);
    int[] owner = new int[partitions];
    for (int partition = partitions - 1; partition >= 0; partition--) {
      owner[partition] = random.nextInt(hosts.size());
      actives.get(owner[partition]).add(partition);
      standbys.get(random.nextInt(hosts.size())).add(partition);
      standbys.get(random.nextInt(hosts.size())).add(partition);
    }
    List<StreamsMetadata> metadata = new ArrayList<>();
    for (int n = 0; n < hosts.size(); n++) {
      metadata.add(instance(hosts.get(n), actives.get(n), standbys.get(n)));
    }
    ViewReplicas replicas = ViewReplicas.of(TOPIC, metadata);
    assertThat(replicas.partitions()).isEqualTo(partitions);
    assertThat(replicas.complete()).isTrue();
    for (int partition = 0; partition < partitions; partition++) {
      HostInfo active = hosts.get(owner[partition]);
      List<PartitionOwner> expected = new ArrayList<>();
      for (int n = 0; n < hosts.size(); n++) {
        if (standbys.get(n).contains(partition) && n != owner[partition]) {
          expected.add(new PartitionOwner(partition, hosts.get(n)));
        }
      }
      assertThat(replicas.replicas(partition))
          .as("partition %d", partition)
          .isEqualTo(new KeyReplicas(new PartitionOwner(partition, active), expected));
      assertThat(replicas.owners().get(partition)).isEqualTo(new PartitionOwner(partition, active));
    }
    assertThat(replicas.owners()).hasSize(partitions);
  }

  @Test
  void namesNoStandbyOnTheActivesOwnInstanceNorOneWithoutAnAddress() {
    ViewReplicas replicas =
        ViewReplicas.of(
            TOPIC,
            List.of(
                instance(A, Set.of(0), Set.of(0)),
                instance(HostInfo.unavailable(), Set.of(), Set.of(0)),
                instance(B, Set.of(), Set.of(0))));
    assertThat(replicas.replicas(0))
        .isEqualTo(new KeyReplicas(new PartitionOwner(0, A), List.of(new PartitionOwner(0, B))));
  }

  @Test
  void readsTheReplicasOfEveryTopicInOnePassAsItReadsThemOneTopicAtATime() {
    String other = "app-per-region-repartition";
    List<StreamsMetadata> metadata =
        List.of(
            instance(A, Set.of(0, 1), Set.of(2)),
            instance(B, Set.of(2), Set.of(0, 1)),
            new StreamsMetadataImpl(
                C,
                Set.of("per-region"),
                Set.of(new TopicPartition(other, 0), new TopicPartition("orders", 0)),
                Set.of("per-region"),
                Set.of(new TopicPartition(other, 1))),
            new StreamsMetadataImpl(
                A,
                Set.of("per-region"),
                Set.of(new TopicPartition(other, 1)),
                Set.of("per-region"),
                Set.of(new TopicPartition(other, 0))));
    Map<String, ViewReplicas> each = ViewReplicas.ofEach(List.of(TOPIC, other, "none"), metadata);
    assertThat(each).containsOnlyKeys(TOPIC, other, "none");
    for (String topic : List.of(TOPIC, other, "none")) {
      ViewReplicas alone = ViewReplicas.of(topic, metadata);
      ViewReplicas together = each.get(topic);
      assertThat(together.inputTopic()).isEqualTo(topic);
      assertThat(together.partitions()).as(topic).isEqualTo(alone.partitions());
      assertThat(together.owners()).as(topic).isEqualTo(alone.owners());
      for (int partition = 0; partition <= 3; partition++) {
        assertThat(together.replicas(partition)).isEqualTo(alone.replicas(partition));
      }
    }
    assertThat(each.get(other).replicas(1))
        .isEqualTo(new KeyReplicas(new PartitionOwner(1, A), List.of(new PartitionOwner(1, C))));
    assertThat(each.get("none").complete()).isFalse();
  }

  @Test
  void isIncompleteWithoutMetadata() {
    assertThat(ViewReplicas.of(TOPIC, List.of()).complete()).isFalse();
    assertThat(ViewReplicas.none(TOPIC).complete()).isFalse();
    assertThat(ViewReplicas.none(TOPIC).replicas(0)).isNull();
  }

  @Test
  void placesKeysInThePartitionKafkaStreamsDefaultPartitionerGivesThem() {
    Serializer<String> serializer = new StringSerializer();
    DefaultStreamPartitioner<String, Object> kafka = new DefaultStreamPartitioner<>(serializer);
    List<String> keys = new ArrayList<>();
    IntStream.range(0, 2000).forEach((n) -> keys.add("customer-" + n));
    keys.add("");
    keys.add("ünïcødé-键");
    for (int partitions = 1; partitions <= 16; partitions++) {
      Set<Integer> all = IntStream.range(0, partitions).boxed().collect(Collectors.toSet());
      ViewReplicas replicas = ViewReplicas.of(TOPIC, List.of(instance(A, all, Set.of())));
      for (String key : keys) {
        int expected =
            kafka.partitions(TOPIC, key, null, partitions).orElseThrow().iterator().next();
        assertThat(replicas.partitionOf(serializer.serialize(TOPIC, key)))
            .as("partition of %s among %d", key, partitions)
            .isEqualTo(expected);
      }
    }
  }

  static StreamsMetadata instance(HostInfo host, Set<Integer> actives, Set<Integer> standbys) {
    return new StreamsMetadataImpl(
        host,
        actives.isEmpty() ? Set.of() : Set.of("per-shop"),
        partitions(actives),
        standbys.isEmpty() ? Set.of() : Set.of("per-shop"),
        partitions(standbys));
  }

  private static Set<TopicPartition> partitions(Set<Integer> numbers) {
    return numbers.stream()
        .map((partition) -> new TopicPartition(TOPIC, partition))
        .collect(Collectors.toSet());
  }
}
