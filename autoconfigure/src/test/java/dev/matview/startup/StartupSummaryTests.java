package dev.matview.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.json.JsonMapper;

/** What Matview says it built once Kafka Streams runs. */
@ExtendWith(OutputCaptureExtension.class)
class StartupSummaryTests {

  private static final String NL = System.lineSeparator();

  private final ViewRegistry registry = registry();

  @Test
  void listsEachViewWithItsKindSourceTopicPartitionsStoreAndChangelogUnderTheLookupUrl() {
    assertThat(
            StartupSummary.format(
                "shop", this.registry.all(), Map.of("sales", 3), "http://shop-1:8080/views"))
        .isEqualTo(
            "Matview serves 3 views of application 'shop' at http://shop-1:8080/views"
                + NL
                + "  view          kind      source topic  partitions  store         changelog topic"
                + NL
                + "  per-shop      table     sales         3           per-shop      shop-per-shop-changelog"
                + NL
                + "  per-customer  table     sales         3           per-customer  shop-per-customer-changelog"
                + NL
                + "  per-minute    windowed  sales         3           per-minute    shop-per-minute-changelog");
  }

  @Test
  void saysWhenPartitionsAreUnknownAndWhenThereAreNoLookupsOverHttp() {
    String summary = StartupSummary.format("shop", this.registry.all(), Map.of(), null);
    assertThat(summary.lines().findFirst())
        .hasValue(
            "Matview serves 3 views of application 'shop' without lookups over HTTP (no web"
                + " server, or matview.web.enabled=false)");
    assertThat(summary.lines().skip(2))
        .hasSize(3)
        .allSatisfy((row) -> assertThat(row.trim().split(" +")[3]).isEqualTo("?"));
  }

  @Test
  void logsOnceWhenKafkaStreamsFirstRunsWithThePartitionsOfAllInstances(CapturedOutput output) {
    List<StreamsMetadata> instances =
        List.of(
            instance(
                new TopicPartition("sales", 0),
                new TopicPartition("sales", 1),
                new TopicPartition("shop-per-customer-repartition", 0)),
            instance(new TopicPartition("sales", 2)));
    KafkaStreams streams = mock(KafkaStreams.class);
    given(streams.metadataForAllStreamsClients()).willReturn(instances);
    StartupSummary summary =
        new StartupSummary(this.registry, () -> streams, () -> "http://shop-1:8080/views");
    summary.onChange(KafkaStreams.State.REBALANCING, KafkaStreams.State.CREATED);
    assertThat(output).doesNotContain("Matview serves");
    summary.onChange(KafkaStreams.State.RUNNING, KafkaStreams.State.REBALANCING);
    summary.onChange(KafkaStreams.State.REBALANCING, KafkaStreams.State.RUNNING);
    summary.onChange(KafkaStreams.State.RUNNING, KafkaStreams.State.REBALANCING);
    assertThat(output.getAll().split("Matview serves", -1)).hasSize(2);
    assertThat(output)
        .contains("Matview serves 3 views of application 'shop' at http://shop-1:8080/views")
        .contains("  per-shop      table     sales         3           per-shop");
  }

  @Test
  void countsNoPartitionsWithoutKafkaStreamsOrItsMetadata() {
    assertThat(StartupSummary.sourcePartitions(null)).isEmpty();
    KafkaStreams streams = mock(KafkaStreams.class);
    given(streams.metadataForAllStreamsClients()).willThrow(new IllegalStateException("closed"));
    assertThat(StartupSummary.sourcePartitions(streams)).isEmpty();
  }

  private static StreamsMetadata instance(TopicPartition... partitions) {
    StreamsMetadata metadata = mock(StreamsMetadata.class);
    given(metadata.topicPartitions()).willReturn(Set.of(partitions));
    return metadata;
  }

  private static ViewRegistry registry() {
    Map<String, ViewDefinition<?, ?, ?>> views = new LinkedHashMap<>();
    views.put("per-shop", Views.from("sales", Sale.class).count());
    views.put(
        "per-customer",
        Views.from("sales", Sale.class).groupBy(String.class, Sale::customer).count());
    views.put(
        "per-minute",
        Views.from("sales", Sale.class)
            .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
            .count());
    return ViewRegistry.of(views, new ViewSerdes(JsonMapper.builder().build()), "shop");
  }

  record Sale(String shop, String customer) {}
}
