package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.avro.AvroSerdes;
import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.ServerSentEventReader;
import example.shipping.Shipment;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The README's views over Avro values on a real broker: specific records counted and kept, generic
 * records of a schema alone, each answer read over HTTP as the JSON of the record's fields.
 */
@MatviewIntegrationTest(
    classes = AvroViewsIntegrationTests.Shipping.class,
    partitions = 2,
    properties = {
      "spring.kafka.streams.application-id=kit-avro",
      "matview.advertised-host=localhost",
      "matview.rocksdb.total-memory=32MB"
    })
class AvroViewsIntegrationTests {

  private static final Instant SENT = Instant.parse("2026-03-01T10:15:30.250Z");

  @Autowired MatviewTestPublisher publisher;

  @Autowired ViewAwaiter views;

  @LocalServerPort int port;

  @Test
  void countsSpecificRecordsAndKeepsTheLastOneAsAvro() {
    this.publisher.publish("shipments", "s-1", shipment("s-1", "Lyon", "1.200"));
    this.publisher.publish("shipments", "s-2", shipment("s-2", "Lyon", "0.750"));
    Shipment last = shipment("s-1", "Paris", "2.500");
    this.publisher.publish("shipments", "s-1", last);

    this.views.awaitView("shipments-per-city", "Lyon", 2L);
    assertThat(this.views.awaitView("last-shipment", "s-1", last)).isEqualTo(last);

    assertThat(http().get("/views/shipments-per-city/keys/Lyon").body())
        .isEqualTo("{\"key\":\"Lyon\",\"value\":2}");
    assertThat(http().get("/views/last-shipment/keys/s-1").body())
        .isEqualTo(
            "{\"key\":\"s-1\",\"value\":{\"id\":\"s-1\",\"city\":\"Paris\",\"weight\":2.500,"
                + "\"sentAt\":\"2026-03-01T10:15:30.250Z\"}}");
  }

  @Test
  void readsATopicWithTheSerdeBeanAViewIsGiven() {
    this.publisher.publish("registered-shipments", "s-30", shipment("s-30", "Lille", "1.000"));

    this.views.awaitView("registered-shipments-per-city", "Lille", 1L);
    assertThat(http().get("/views/registered-shipments-per-city/keys/Lille").body())
        .isEqualTo("{\"key\":\"Lille\",\"value\":1}");
  }

  @Test
  void countsGenericRecordsAndKeepsTheLastOneOfTheSchemaAlone() {
    this.publisher.publish("scans", "s-10", scan("s-10", "depot-1", SENT));
    this.publisher.publish("scans", "s-11", scan("s-11", "depot-1", SENT));
    this.publisher.publish("scans", "s-10", scan("s-10", "depot-2", SENT.plusSeconds(60)));

    this.views.awaitView("scans-per-depot", "depot-1", 2L);
    this.views.awaitView(
        "last-scan",
        "s-10",
        GenericRecord.class,
        scan -> assertThat(scan.get("depot")).hasToString("depot-2"));

    assertThat(http().get("/views/scans-per-depot/keys/depot-1").json().path("value").asLong())
        .isEqualTo(2);
    assertThat(http().get("/views/last-scan/keys/s-10").body())
        .isEqualTo(
            "{\"key\":\"s-10\",\"value\":{\"shipment\":\"s-10\",\"depot\":\"depot-2\","
                + "\"at\":\"2026-03-01T10:16:30.250Z\"}}");
  }

  @Test
  void writesAvroValuesAsJsonInBatchesScansAndChangeStreams() throws InterruptedException {
    Shipment shipment = shipment("s-20", "Nantes", "3.000");
    this.publisher.publish("shipments", "s-20", shipment);
    this.views.awaitView("last-shipment", "s-20", shipment);
    String json =
        "{\"id\":\"s-20\",\"city\":\"Nantes\",\"weight\":3.000,"
            + "\"sentAt\":\"2026-03-01T10:15:30.250Z\"}";

    assertThat(http().post("/views/last-shipment/batch", Map.of("keys", List.of("s-20"))).body())
        .isEqualTo("{\"items\":[{\"key\":\"s-20\",\"found\":true,\"value\":" + json + "}]}");
    assertThat(http().get("/views/last-shipment/keys?from=s-20&to=s-20").body())
        .startsWith("{\"items\":[{\"key\":\"s-20\",\"value\":" + json + "}]");
    try (ServerSentEventReader events = http().events("/views/last-shipment/keys/s-20/changes")) {
      assertThat(events.status()).isEqualTo(200);
      assertThat(events.next(Duration.ofSeconds(10)).data())
          .isEqualTo("{\"key\":\"s-20\",\"value\":" + json + "}");
    }
  }

  private HttpProbe http() {
    return HttpProbe.localhost(this.port);
  }

  private static Shipment shipment(String id, String city, String weight) {
    return new Shipment(id, city, new BigDecimal(weight), SENT);
  }

  private static GenericRecord scan(String shipment, String depot, Instant at) {
    GenericData.Record scan = new GenericData.Record(ShipmentViews.SCAN);
    scan.put("shipment", shipment);
    scan.put("depot", depot);
    scan.put("at", at);
    return scan;
  }

  /**
   * An application of the README's views over Avro values, with plain Avro binary standing in for a
   * schema registry's serde.
   */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import({ShipmentViews.class, RegisteredShipmentViews.class})
  static class Shipping {

    @Bean
    Serde<Shipment> shipmentSerde() {
      return AvroSerdes.specific(Shipment.class);
    }
  }
}
