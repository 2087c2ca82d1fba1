package dev.matview.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.matview.avro.schemas.Address;
import dev.matview.avro.schemas.Checksum;
import dev.matview.avro.schemas.Parcel;
import dev.matview.avro.schemas.Status;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

/** Plain Avro binary of specific and generic records, and the errors of what it cannot read. */
class AvroSerdesTests {

  private final Serde<Parcel> specific = AvroSerdes.specific(Parcel.class);

  private final Serde<GenericRecord> generic = AvroSerdes.generic(Parcel.getClassSchema());

  @Test
  void readsBackTheSpecificRecordItWrote() {
    byte[] bytes = this.specific.serializer().serialize("parcels", Parcels.specific());

    Parcel read = this.specific.deserializer().deserialize("parcels", bytes);

    assertThat(read).isEqualTo(Parcels.specific());
    assertThat(read.getSender()).isInstanceOf(Address.class);
    assertThat(read.getStops()).singleElement().isInstanceOf(Address.class);
    assertThat(read.getStatus()).isSameAs(Status.DELIVERED);
    assertThat(read.getChecksum()).isInstanceOf(Checksum.class);
  }

  @Test
  void writesPlainAvroBinaryThatTheGenericSerdeReadsWithLogicalTypesAsJavaValues() {
    byte[] bytes = this.specific.serializer().serialize("parcels", Parcels.specific());

    GenericRecord read = this.generic.deserializer().deserialize("parcels", bytes);

    assertThat(read).isNotNull();
    assertThat(read.get("id")).hasToString("p-1");
    assertThat(read.get("weight")).isEqualTo(new BigDecimal("2.500"));
    assertThat(read.get("sentAt")).isEqualTo(Parcels.SENT_AT);
    assertThat(read.get("deliveredOn")).isEqualTo(LocalDate.of(2026, 3, 3));
    assertThat(read.get("trackingId")).isEqualTo(Parcels.TRACKING_ID);
    assertThat(this.generic.serializer().serialize("parcels", read)).isEqualTo(bytes);
  }

  @Test
  void writesAGenericRecordOfRawAvroDataAsTheSpecificSerdeWritesTheRecord() {
    assertThat(this.generic.serializer().serialize("parcels", Parcels.genericRaw()))
        .isEqualTo(this.specific.serializer().serialize("parcels", Parcels.specific()));
  }

  @Test
  void passesNullThroughAsKafkaSerdesDo() {
    assertThat(this.specific.serializer().serialize("parcels", null)).isNull();
    assertThat(this.generic.deserializer().deserialize("parcels", null)).isNull();
  }

  @Test
  void refusesBytesThatAreNotAvroOfTheSchemaNamingTheSchema() {
    byte[] json = "{\"id\":\"p-1\"}".getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> this.specific.deserializer().deserialize("parcels", json))
        .isInstanceOf(SerializationException.class)
        .hasMessageStartingWith(
            "Cannot read 12 bytes as Avro binary of dev.matview.avro.schemas.Parcel: ");
  }

  @Test
  void refusesARecordCutShort() {
    byte[] bytes = this.specific.serializer().serialize("parcels", Parcels.specific());
    byte[] cut = Arrays.copyOf(bytes, bytes.length - 3);

    assertThatThrownBy(() -> this.generic.deserializer().deserialize("parcels", cut))
        .isInstanceOf(SerializationException.class)
        .hasMessage(
            "Cannot read "
                + cut.length
                + " bytes as Avro binary of dev.matview.avro.schemas.Parcel: the value ends"
                + " before the record does");
  }

  @Test
  void refusesBytesLeftAfterTheRecord() {
    byte[] bytes = this.specific.serializer().serialize("parcels", Parcels.specific());
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 2);

    assertThatThrownBy(() -> this.specific.deserializer().deserialize("parcels", longer))
        .isInstanceOf(SerializationException.class)
        .hasMessageEndingWith(": bytes are left after the record");
  }

  @Test
  void saysHowToReadAValueWrittenThroughASchemaRegistry() {
    Serde<Address> addresses = AvroSerdes.specific(Address.class);
    byte[] record = addresses.serializer().serialize("a", new Address("1 Main St", "Lyon"));
    byte[] framed = new byte[record.length + 5];
    framed[4] = 42;
    System.arraycopy(record, 0, framed, 5, record.length);

    assertThatThrownBy(() -> addresses.deserializer().deserialize("addresses", framed))
        .isInstanceOf(SerializationException.class)
        .hasMessageEndingWith(
            "; a value written through a schema registry starts with a zero byte and a schema id:"
                + " read such a topic with the registry's serde");
  }

  @Test
  void refusesToWriteARecordOfAnotherSchema() {
    Serde<GenericRecord> addresses =
        AvroSerdes.generic(Parcel.getClassSchema().getField("sender").schema());

    assertThatThrownBy(() -> addresses.serializer().serialize("a", Parcels.genericRaw()))
        .isInstanceOf(SerializationException.class)
        .hasMessage(
            "Cannot write an Avro record of schema dev.matview.avro.schemas.Parcel with the serde"
                + " of dev.matview.avro.schemas.Address: build the record with the serde's schema");
  }

  @Test
  void refusesAClassWithoutASchemaOfItsOwn() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> AvroSerdes.specific(SpecificRecord.class))
        .withMessage(
            "org.apache.avro.specific.SpecificRecord holds no Avro schema: pass a class generated"
                + " from a schema (avro-maven-plugin), or read GenericRecord values with"
                + " AvroSerdes.generic(schema)");
  }

  @Test
  void refusesASchemaThatIsNotARecords() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> AvroSerdes.generic(Schema.create(Schema.Type.STRING)))
        .withMessage(
            "The Avro schema string is of type string, not a record: pass the schema of the"
                + " topic's record values");
  }

  @Test
  void keepsTheInstantsMillisecondsAsTheSchemaSays() {
    Parcel parcel = Parcels.specific();
    parcel.setSentAt(Instant.parse("2026-03-01T10:15:30.250999Z"));
    parcel.setTrackingId(UUID.randomUUID());

    byte[] bytes = this.specific.serializer().serialize("parcels", parcel);

    assertThat(this.specific.deserializer().deserialize("parcels", bytes).getSentAt())
        .isEqualTo(Parcels.SENT_AT);
  }
}
