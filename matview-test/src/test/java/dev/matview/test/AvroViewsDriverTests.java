package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.deadletter.DeadLetterReason;
import example.shipping.Shipment;
import java.math.BigDecimal;
import java.time.Instant;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The README's views over Avro values on the kit's driver, and the values they cannot read. */
class AvroViewsDriverTests {

  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  private final ViewTestDriver driver =
      ViewTestDriver.builder().viewsOf(ShipmentViews.class).build();

  private final TestSourceTopic<String, Shipment> shipments =
      this.driver.sourceTopic("shipments", String.class, Shipment.class);

  @AfterEach
  void closeDriver() {
    this.driver.close();
  }

  @Test
  void countsAndKeepsSpecificAndGenericRecords() {
    Shipment shipment = new Shipment("s-1", "Lyon", new BigDecimal("1.250"), T0);
    this.shipments.pipe("s-1", shipment, T0);
    GenericData.Record scan = new GenericData.Record(ShipmentViews.SCAN);
    scan.put("shipment", "s-1");
    scan.put("depot", "depot-1");
    scan.put("at", T0);
    this.driver.sourceTopic("scans", String.class, GenericRecord.class).pipe("s-1", scan, T0);

    assertThat(this.driver.view("shipments-per-city", String.class, Long.class).get("Lyon"))
        .isEqualTo(1L);
    assertThat(this.driver.view("last-shipment", String.class, Shipment.class).get("s-1"))
        .isEqualTo(shipment);
    assertThat(this.driver.view("scans-per-depot", String.class, Long.class).get("depot-1"))
        .isEqualTo(1L);
    assertThat(this.driver.view("last-scan", String.class, GenericRecord.class).get("s-1"))
        .isEqualTo(scan);
  }

  @Test
  void writesAValueThatIsNotAnAvroRecordOfTheSchemaToTheDeadLetterTopicSayingWhy() {
    this.shipments.pipeRaw("s-2", new byte[] {'{', '}'}, T0);

    assertThat(this.driver.deadLetters())
        .hasSize(2)
        .allSatisfy(
            letter -> {
              assertThat(letter.reason()).isEqualTo(DeadLetterReason.DESERIALIZATION);
              assertThat(letter.exceptionMessage())
                  .contains("Cannot read 2 bytes as Avro binary of example.shipping.Shipment: ");
            });
  }

  @Test
  void saysThatAValueFramedByASchemaRegistryNeedsTheRegistrysSerde() {
    this.shipments.pipeRaw("s-3", new byte[] {0, 0, 0, 0, 7, 2, 'x'}, T0);

    assertThat(this.driver.view("last-shipment", String.class, Shipment.class).deadLetters())
        .singleElement()
        .satisfies(
            letter ->
                assertThat(letter.exceptionMessage())
                    .contains("read such a topic with the registry's serde"));
  }
}
