package dev.matview.test;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import example.shipping.Shipment;
import org.apache.kafka.common.serialization.Serde;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class RegisteredShipmentViews {

  // shipmentSerde: the registry's serde, a bean of your own (below).
  @MaterializedView("registered-shipments-per-city")
  ViewDefinition<String, Shipment, Long> registeredShipmentsPerCity(Serde<Shipment> shipmentSerde) {
    return Views.from("registered-shipments", Shipment.class)
        .valueSerde(shipmentSerde)
        .groupBy(String.class, Shipment::getCity)
        .count();
  }
}
