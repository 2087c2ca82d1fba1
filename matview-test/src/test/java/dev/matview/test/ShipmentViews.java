package dev.matview.test;

import dev.matview.avro.AvroSerdes;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import example.shipping.Shipment;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class ShipmentViews {

  // Records of a class that avro-maven-plugin generates from src/main/avro/shipment.avsc.
  @MaterializedView("shipments-per-city")
  ViewDefinition<String, Shipment, Long> shipmentsPerCity() {
    return Views.from("shipments", Shipment.class)
        .valueSerde(AvroSerdes.specific(Shipment.class))
        .groupBy(String.class, Shipment::getCity)
        .count();
  }

  @MaterializedView("last-shipment")
  ViewDefinition<String, Shipment, Shipment> lastShipment() {
    return Views.from("shipments", Shipment.class)
        .valueSerde(AvroSerdes.specific(Shipment.class))
        .latest();
  }

  // Generic records of a schema the application holds, with no class generated.
  static final Schema SCAN =
      new Schema.Parser()
          .parse(
              """
              {"type": "record", "name": "Scan", "namespace": "example.tracking", "fields": [
                {"name": "shipment", "type": "string"},
                {"name": "depot", "type": "string"},
                {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}}]}
              """);

  @MaterializedView("scans-per-depot")
  ViewDefinition<String, GenericRecord, Long> scansPerDepot() {
    return Views.from("scans", GenericRecord.class)
        .valueSerde(AvroSerdes.generic(SCAN))
        .groupBy(String.class, scan -> scan.get("depot").toString())
        .count();
  }

  @MaterializedView("last-scan")
  ViewDefinition<String, GenericRecord, GenericRecord> lastScan() {
    return Views.from("scans", GenericRecord.class).valueSerde(AvroSerdes.generic(SCAN)).latest();
  }
}
