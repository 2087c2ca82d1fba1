package dev.matview.query.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.internals.StreamsMetadataImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

/** Tests for {@link ViewInstances}. */
class ViewInstancesTests {

  private static final HostInfo FIRST = new HostInfo("matview-1", 8080);

  private static final HostInfo SECOND = new HostInfo("matview-2", 8080);

  private final KafkaStreams streams = mock(KafkaStreams.class);

  private final LocalInstance localInstance = new LocalInstance();

  private final ViewInstances instances =
      new ViewInstances(() -> this.streams, views(), this.localInstance);

  @Test
  void listsEachInstancesActiveAndStandbyPartitionsPerViewFromTheInputTopicOfEachView() {
    given(this.streams.state()).willReturn(KafkaStreams.State.RUNNING);
    StreamsMetadata second =
        new StreamsMetadataImpl(
            SECOND,
            Set.of("orders-per-shop", "orders-per-customer"),
            Set.of(
                new TopicPartition("orders", 1),
                new TopicPartition("app-orders-per-customer-repartition", 0)),
            Set.of("orders-per-shop"),
            Set.of(new TopicPartition("orders", 0)));
    StreamsMetadata first =
        new StreamsMetadataImpl(
            FIRST,
            Set.of("orders-per-shop", "orders-per-customer"),
            Set.of(
                new TopicPartition("orders", 0),
                new TopicPartition("app-orders-per-customer-repartition", 1),
                new TopicPartition("app-orders-per-customer-repartition", 2)),
            Set.of(),
            Set.of());
    given(this.streams.metadataForAllStreamsClients()).willReturn(List.of(second, first));
    this.localInstance.setHostInfo(SECOND);
    List<InstancePartitions> all = this.instances.all();
    assertThat(all).extracting(InstancePartitions::local).containsExactly(false, true);
    assertThat(all)
        .extracting(InstancePartitions::describe)
        .containsExactly("matview-1:8080", "matview-2:8080");
    assertThat(all.get(0).active())
        .containsExactly(
            Map.entry("orders-per-shop", List.of(0)),
            Map.entry("orders-per-customer", List.of(1, 2)));
    assertThat(all.get(0).standby()).isEmpty();
    assertThat(all.get(1).active())
        .containsExactly(
            Map.entry("orders-per-shop", List.of(1)), Map.entry("orders-per-customer", List.of(0)));
    assertThat(all.get(1).standby()).containsExactly(Map.entry("orders-per-shop", List.of(0)));
  }

  @ParameterizedTest
  @EnumSource(names = {"CREATED", "PENDING_SHUTDOWN", "NOT_RUNNING", "PENDING_ERROR", "ERROR"})
  void listsNoInstanceWhileKafkaStreamsIsNeitherRunningNorRebalancing(KafkaStreams.State state) {
    given(this.streams.state()).willReturn(state);
    assertThat(this.instances.all()).isEmpty();
  }

  @Test
  void listsNoInstanceBeforeKafkaStreamsIsCreated() {
    assertThat(new ViewInstances(() -> null, views(), this.localInstance).all()).isEmpty();
  }

  @Test
  void listsNoInstanceWhenKafkaStreamsStopsWhileAsked() {
    given(this.streams.state()).willReturn(KafkaStreams.State.RUNNING);
    given(this.streams.metadataForAllStreamsClients())
        .willThrow(new IllegalStateException("KafkaStreams is not running"));
    assertThat(this.instances.all()).isEmpty();
  }

  private static ViewRegistry views() {
    Map<String, ViewDefinition<?, ?, ?>> views = new LinkedHashMap<>();
    views.put("orders-per-shop", Views.from("orders", Order.class).count());
    views.put(
        "orders-per-customer",
        Views.from("orders", Order.class).groupBy(String.class, Order::customer).count());
    return ViewRegistry.of(views, new ViewSerdes(JsonMapper.builder().build()), "app");
  }

  record Order(String shop, String customer) {}
}
