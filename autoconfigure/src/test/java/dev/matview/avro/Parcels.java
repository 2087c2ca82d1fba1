package dev.matview.avro;

import dev.matview.avro.schemas.Address;
import dev.matview.avro.schemas.Checksum;
import dev.matview.avro.schemas.Parcel;
import dev.matview.avro.schemas.Status;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;

/** One parcel as a specific record, as a generic record with Avro's raw values, and as JSON. */
final class Parcels {

  static final Instant SENT_AT = Instant.parse("2026-03-01T10:15:30.250Z");

  static final UUID TRACKING_ID = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");

  /** The JSON a reader of the parcel expects, its fields in schema order. */
  static final String JSON =
      """
      {"id":"p-1","weight":2.500,"sentAt":"2026-03-01T10:15:30.250Z","deliveredOn":"2026-03-03",\
      "trackingId":"123e4567-e89b-12d3-a456-426614174000","status":"DELIVERED",\
      "sender":{"street":"1 Main St","city":"Lyon"},\
      "stops":[{"street":"2 Dock Rd","city":"Paris"}],"labels":{"floor":"3"},\
      "checksum":"AQID/w==","photo":"aGk=","fragile":true,"volume":0.75,"insured":null}""";

  private Parcels() {}

  static Parcel specific() {
    return Parcel.newBuilder()
        .setId("p-1")
        .setWeight(new BigDecimal("2.500"))
        .setSentAt(SENT_AT)
        .setDeliveredOn(LocalDate.of(2026, 3, 3))
        .setTrackingId(TRACKING_ID)
        .setStatus(Status.DELIVERED)
        .setSender(new Address("1 Main St", "Lyon"))
        .setStops(List.of(new Address("2 Dock Rd", "Paris")))
        .setLabels(Map.of("floor", "3"))
        .setChecksum(new Checksum(new byte[] {1, 2, 3, -1}))
        .setPhoto(ByteBuffer.wrap("hi".getBytes(StandardCharsets.UTF_8)))
        .setFragile(true)
        .setVolume(0.75)
        .setInsured(null)
        .build();
  }

  /** The parcel as Avro's generic data holds it without conversions: longs, ints and bytes. */
  static GenericRecord genericRaw() {
    Schema schema = Parcel.getClassSchema();
    Schema address = schema.getField("sender").schema();
    GenericData.Record sender = new GenericData.Record(address);
    sender.put("street", new Utf8("1 Main St"));
    sender.put("city", new Utf8("Lyon"));
    GenericData.Record stop = new GenericData.Record(address);
    stop.put("street", new Utf8("2 Dock Rd"));
    stop.put("city", new Utf8("Paris"));
    GenericData.Record parcel = new GenericData.Record(schema);
    parcel.put("id", new Utf8("p-1"));
    parcel.put("weight", ByteBuffer.wrap(new BigDecimal("2.500").unscaledValue().toByteArray()));
    parcel.put("sentAt", SENT_AT.toEpochMilli());
    parcel.put("deliveredOn", (int) LocalDate.of(2026, 3, 3).toEpochDay());
    parcel.put("trackingId", new Utf8(TRACKING_ID.toString()));
    parcel.put(
        "status", new GenericData.EnumSymbol(schema.getField("status").schema(), "DELIVERED"));
    parcel.put("sender", sender);
    parcel.put("stops", new GenericData.Array<>(schema.getField("stops").schema(), List.of(stop)));
    parcel.put("labels", Map.of(new Utf8("floor"), new Utf8("3")));
    parcel.put(
        "checksum",
        new GenericData.Fixed(schema.getField("checksum").schema(), new byte[] {1, 2, 3, -1}));
    parcel.put("photo", ByteBuffer.wrap("hi".getBytes(StandardCharsets.UTF_8)));
    parcel.put("fragile", true);
    parcel.put("volume", 0.75);
    parcel.put("insured", null);
    return parcel;
  }
}
