package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.matview.peer.TestPeers;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.local.LocalReplicas;
import dev.matview.query.local.LocalStores;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.peer.PeerMarks;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.InstanceMemory;
import dev.matview.query.routing.LocalInstance;
import dev.matview.query.routing.ReplicaDirectory;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.StaleReads;
import dev.matview.query.routing.StreamsRouting;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.Views;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.StringNode;

/** A batch larger than the configured maximum is refused before any lookup. */
class ViewBatchServiceTests {

  @Test
  void refusesABatchOverTheMaximumSize() {
    ViewSerdes serdes = new ViewSerdes(JsonMapper.builder().build());
    ViewRegistry registry =
        ViewRegistry.of(Map.of("counts", Views.from("events", Event.class).count()), serdes, "app");
    LocalInstance self = new LocalInstance();
    Routing routing =
        new StreamsRouting(
            new ReplicaDirectory(
                registry.all(), "app", Duration.ofSeconds(1), InstanceMemory.none()),
            self);
    LocalStores stores = new LocalStores(() -> null);
    PeerClient peers =
        new PeerClient("/views", Duration.ofSeconds(1), null, TestPeers.requests(), false);
    ViewQueryService views =
        new ViewQueryService(
            registry,
            routing,
            stores,
            peers,
            self,
            new KeyParser(serdes.mapper()),
            Clock.systemUTC(),
            StaleReads.disabled(),
            LocalReplicas.NONE,
            LookupMetrics.NONE);
    ViewBatchService batches =
        new ViewBatchService(
            views,
            routing,
            peers,
            PeerMarks.lasting(Duration.ofSeconds(2)),
            serdes.mapper(),
            2,
            null);
    List<JsonNode> keys =
        List.of(StringNode.valueOf("a"), StringNode.valueOf("b"), StringNode.valueOf("c"));
    assertThatExceptionOfType(InvalidQueryException.class)
        .isThrownBy(() -> batches.lookup("counts", keys, CallerContext.direct()))
        .withMessageContaining("at most 2 keys, this one holds 3");
  }

  record Event(String id) {}
}
