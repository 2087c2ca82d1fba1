package dev.matview.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import dev.matview.actuate.MatviewsDescriptor.InstanceDescriptor;
import dev.matview.actuate.MatviewsDescriptor.LagDescriptor;
import dev.matview.actuate.MatviewsDescriptor.RouteDescriptor;
import dev.matview.actuate.MatviewsDescriptor.ViewDescriptor;
import dev.matview.actuate.MatviewsDescriptor.WindowDescriptor;
import dev.matview.deadletter.DeadLetter;
import dev.matview.deadletter.DeadLetterCounts;
import dev.matview.deadletter.DeadLetterReason;
import dev.matview.disk.StateDirSpace;
import dev.matview.disk.StoreDiskUsage;
import dev.matview.health.DiskPressure;
import dev.matview.health.RestoreLagTracker;
import dev.matview.metrics.LookupActivity;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.ViewInstances;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.internals.StreamsMetadataImpl;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** Tests for {@link MatviewsEndpoint}. */
class MatviewsEndpointTests {

  private static final HostInfo LOCAL = new HostInfo("matview-1", 8080);

  private static final HostInfo OTHER = new HostInfo("matview-2", 8080);

  @TempDir Path stateDir;

  private final KafkaStreams streams = mock(KafkaStreams.class);

  private final AtomicLong nanos = new AtomicLong();

  private final RestoreLagTracker tracker =
      new RestoreLagTracker(this.nanos::get, RestoreLagTracker.DEFAULT_PROGRESS_INTERVAL);

  private final Map<MetricName, Metric> streamsMetrics = new LinkedHashMap<>();

  @BeforeEach
  void kafkaStreamsIsCreated() {
    given(this.streams.state()).willReturn(KafkaStreams.State.CREATED);
  }

  @Test
  void describesEachViewWithItsTopicsAndItsBytesOnDisk() {
    liveSstBytes("orders-per-customer", "1_0", 2048);
    liveSstBytes("orders-per-customer", "1_1", 1024);
    List<ViewDescriptor> views = endpoint(0).matviews().views();
    assertThat(views)
        .containsExactly(
            new ViewDescriptor(
                "orders-per-customer",
                "table",
                "String",
                "Long",
                null,
                "orders-per-customer",
                "orders",
                "app-orders-per-customer-repartition",
                "app-orders-per-customer-changelog",
                3072),
            new ViewDescriptor(
                "orders-per-minute",
                "windowed",
                "String",
                "Long",
                new WindowDescriptor(
                    "tumbling",
                    Duration.ofMinutes(1),
                    Duration.ofMinutes(1),
                    Duration.ZERO,
                    Duration.ofDays(1)),
                "orders-per-minute",
                "orders",
                null,
                "app-orders-per-minute-changelog",
                0));
  }

  @Test
  void describesTheTopology() {
    assertThat(endpoint(0).matviews().topology()).isEqualTo("Topologies: (described)");
  }

  @Test
  void listsEveryInstanceWithItsActiveAndStandbyPartitionsAndWhichIsThisOne() {
    given(this.streams.state()).willReturn(KafkaStreams.State.RUNNING);
    given(this.streams.metadataForAllStreamsClients())
        .willReturn(
            List.of(
                new StreamsMetadataImpl(
                    OTHER,
                    Set.of("orders-per-minute", "orders-per-customer"),
                    Set.of(
                        new TopicPartition("orders", 1),
                        new TopicPartition("app-orders-per-customer-repartition", 1)),
                    Set.of("orders-per-minute"),
                    Set.of(new TopicPartition("orders", 0))),
                new StreamsMetadataImpl(
                    LOCAL,
                    Set.of("orders-per-minute", "orders-per-customer"),
                    Set.of(
                        new TopicPartition("orders", 0),
                        new TopicPartition("app-orders-per-customer-repartition", 0)),
                    Set.of("orders-per-minute"),
                    Set.of(new TopicPartition("orders", 1)))));
    assertThat(endpoint(0).matviews().instances())
        .containsExactly(
            new InstanceDescriptor(
                "matview-1:8080",
                true,
                Map.of("orders-per-customer", List.of(0), "orders-per-minute", List.of(0)),
                Map.of("orders-per-minute", List.of(1))),
            new InstanceDescriptor(
                "matview-2:8080",
                false,
                Map.of("orders-per-customer", List.of(1), "orders-per-minute", List.of(1)),
                Map.of("orders-per-minute", List.of(0))));
  }

  @Test
  void listsNoInstanceWhileKafkaStreamsIsNotRunning() {
    assertThat(endpoint(0).matviews().instances()).isEmpty();
  }

  @Test
  void listsTheLagOfEachLocalPartition() {
    TopicPartition changelog = new TopicPartition("app-orders-per-customer-changelog", 0);
    this.tracker.onRestoreStart(changelog, "orders-per-customer", 0, 1000);
    this.nanos.addAndGet(Duration.ofSeconds(1).toNanos());
    this.tracker.onBatchRestored(changelog, "orders-per-customer", 499, 500);
    assertThat(endpoint(0).matviews().lags())
        .containsExactly(
            new LagDescriptor("orders-per-customer", 0, "active", 0, 500, 1000L, 500L, 500, 1L));
  }

  @Test
  void listsAStandbyWhoseChangelogEndIsNotKnownYetWithoutEndOrLag() {
    TopicPartition changelog = new TopicPartition("app-orders-per-customer-changelog", 1);
    this.tracker.onUpdateStart(changelog, "orders-per-customer", 300);
    assertThat(endpoint(0).matviews().lags())
        .containsExactly(
            new LagDescriptor("orders-per-customer", 1, "standby", 300, 300, null, null, 0, null));
  }

  @Test
  void givesTheStateDirsFreeSpaceAndTheBound() {
    MatviewsDescriptor.DiskDescriptor disk = endpoint(1024).matviews().disk();
    assertThat(disk.stateDir()).isEqualTo(this.stateDir.toAbsolutePath().toString());
    assertThat(disk.freeBytes()).isPositive();
    assertThat(disk.minFreeBytes()).isEqualTo(1024);
  }

  @Test
  void givesTheLookupBasePathTheRecentLookupsByRouteAndTheDeadLettersByView() {
    LookupActivity lookups = new LookupActivity(this.nanos::get, Duration.ofSeconds(5), 3);
    lookups.record("local", 2_000_000);
    lookups.record("local", 4_000_000);
    lookups.record("forwarded", 1_000_000);
    this.nanos.addAndGet(Duration.ofSeconds(5).toNanos());
    DeadLetterCounts deadLetters = new DeadLetterCounts();
    deadLetters.published(deadLetter("orders-per-minute"));
    deadLetters.published(deadLetter("orders-per-minute"));
    deadLetters.published(deadLetter(null));
    MatviewsDescriptor matviews =
        endpoint(0, new MatviewsEndpoint.Activity("/views", lookups, deadLetters)).matviews();
    assertThat(matviews.lookupBasePath()).isEqualTo("/views");
    assertThat(matviews.lookups().bucketMillis()).isEqualTo(5000);
    assertThat(matviews.lookups().routes())
        .containsExactly(
            entry("local", new RouteDescriptor(List.of(0L, 0L, 2L), List.of(0.0, 0.0, 3.0))),
            entry("forwarded", new RouteDescriptor(List.of(0L, 0L, 1L), List.of(0.0, 0.0, 1.0))),
            entry("standby", new RouteDescriptor(List.of(0L, 0L, 0L), List.of(0.0, 0.0, 0.0))));
    assertThat(matviews.deadLetters())
        .containsExactly(entry("none", 1L), entry("orders-per-minute", 2L));
  }

  @Test
  void leavesOutTheLookupsAndTheBasePathWhenNotGivenThem() {
    MatviewsDescriptor matviews = endpoint(0).matviews();
    assertThat(matviews.lookupBasePath()).isNull();
    assertThat(matviews.lookups()).isNull();
    assertThat(matviews.deadLetters()).isEmpty();
  }

  private MatviewsEndpoint endpoint(long minFreeBytes) {
    return endpoint(minFreeBytes, MatviewsEndpoint.Activity.NONE);
  }

  private MatviewsEndpoint endpoint(long minFreeBytes, MatviewsEndpoint.Activity activity) {
    LocalInstance local = new LocalInstance();
    local.setHostInfo(LOCAL);
    ViewRegistry views = views();
    return new MatviewsEndpoint(
        views,
        () -> "Topologies: (described)",
        new ViewInstances(() -> this.streams, views, local),
        this.tracker,
        new StoreDiskUsage(() -> this.streamsMetrics),
        new DiskPressure(new StateDirSpace(this.stateDir), minFreeBytes),
        activity);
  }

  private static DeadLetter deadLetter(@Nullable String view) {
    return new DeadLetter(
        view,
        DeadLetterReason.DESERIALIZATION,
        "orders",
        0,
        0,
        "orders-source",
        null,
        null,
        new RecordHeaders(),
        new IllegalStateException("unreadable"));
  }

  private void liveSstBytes(String store, String task, long bytes) {
    MetricName name =
        new MetricName(
            "live-sst-files-size",
            "stream-state-metrics",
            "",
            Map.of("thread-id", "t", "task-id", task, "rocksdb-state-id", store));
    this.streamsMetrics.put(
        name,
        new Metric() {
          @Override
          public MetricName metricName() {
            return name;
          }

          @Override
          public Object metricValue() {
            return BigInteger.valueOf(bytes);
          }
        });
  }

  private static ViewRegistry views() {
    Map<String, ViewDefinition<?, ?, ?>> views = new LinkedHashMap<>();
    views.put(
        "orders-per-customer",
        Views.from("orders", Order.class).groupBy(String.class, Order::customer).count());
    views.put(
        "orders-per-minute",
        Views.from("orders", Order.class)
            .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
            .count());
    return ViewRegistry.of(views, new ViewSerdes(JsonMapper.builder().build()), "app");
  }

  record Order(String shop, String customer) {}
}
