package dev.matview.avro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.avro.schemas.Parcel;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Avro records written as the JSON objects of their fields, whichever way they are held. */
class AvroJacksonModuleTests {

  private final JsonMapper mapper = JsonMapper.builder().addModule(new AvroJacksonModule()).build();

  @Test
  void writesASpecificRecordAsItsFieldsInSchemaOrderWithLogicalTypesAsTheirJavaValues() {
    assertThat(this.mapper.writeValueAsString(Parcels.specific())).isEqualTo(Parcels.JSON);
  }

  @Test
  void writesAGenericRecordOfRawAvroDataAsTheSameJson() {
    assertThat(this.mapper.writeValueAsString(Parcels.genericRaw())).isEqualTo(Parcels.JSON);
  }

  @Test
  void writesAGenericRecordReadWithConversionsAsTheSameJson() {
    byte[] bytes =
        AvroSerdes.specific(Parcel.class).serializer().serialize("t", Parcels.specific());
    GenericRecord read =
        AvroSerdes.generic(Parcel.getClassSchema()).deserializer().deserialize("t", bytes);
    assertThat(this.mapper.writeValueAsString(read)).isEqualTo(Parcels.JSON);
  }

  @Test
  void writesAvroRecordsInsideOtherValues() {
    record Delivery(String courier, GenericRecord parcel) {}

    String json =
        this.mapper.writeValueAsString(
            Map.of("delivery", new Delivery("fast", Parcels.genericRaw())));

    assertThat(json)
        .isEqualTo("{\"delivery\":{\"courier\":\"fast\",\"parcel\":" + Parcels.JSON + "}}");
    assertThat(this.mapper.writeValueAsString(List.of(Parcels.specific())))
        .isEqualTo("[" + Parcels.JSON + "]");
  }

  @Test
  void writesAvroStringsEnumsAndFixedOnTheirOwnAsStrings() {
    GenericRecord parcel = Parcels.genericRaw();
    assertThat(this.mapper.writeValueAsString(new Utf8("p-1"))).isEqualTo("\"p-1\"");
    assertThat(this.mapper.writeValueAsString(parcel.get("status"))).isEqualTo("\"DELIVERED\"");
    assertThat(this.mapper.writeValueAsString(parcel.get("checksum"))).isEqualTo("\"AQID/w==\"");
  }

  @Test
  void writesAFieldWhoseValueFitsNoBranchOfItsUnionByTheValuesOwnType() {
    GenericData.Record parcel = (GenericData.Record) Parcels.genericRaw();
    parcel.put("insured", "not a long");

    assertThat(
            this.mapper.readTree(this.mapper.writeValueAsString(parcel)).path("insured").asString())
        .isEqualTo("not a long");
  }
}
