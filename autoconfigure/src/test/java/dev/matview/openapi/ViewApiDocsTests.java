package dev.matview.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.avro.AvroSerdes;
import dev.matview.avro.schemas.Parcel;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The OpenAPI document describes each view's own lookup paths with its key type and value schema,
 * window parameters, the replica headers and the problem details, in place of the generic paths.
 */
class ViewApiDocsTests {

  private final ViewRegistry registry =
      ViewRegistry.of(
          Map.of(
              "revenue",
              Views.from("orders", Order.class)
                  .groupBy(String.class, Order::customerId)
                  .aggregate(Revenue.class, new RevenueAggregation()),
              "per-minute",
              Views.from("orders", Order.class)
                  .eventTime(Order::ts)
                  .groupBy(Long.class, Order::shop)
                  .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
                  .count(),
              "parcels",
              Views.from("parcels", Parcel.class)
                  .valueSerde(AvroSerdes.specific(Parcel.class))
                  .latest(),
              "scans",
              Views.from("scans", GenericRecord.class)
                  .valueSerde(AvroSerdes.generic(Parcel.getClassSchema()))
                  .latest()),
          new ViewSerdes(JsonMapper.builder().build()),
          "docs");

  private final OpenAPI openApi = documented();

  @Test
  void describesATableViewsKeyLookupWithItsKeyTypeValueSchemaHeadersAndProblems() {
    Operation get = operation("/views/revenue/keys/{key}").getGet();

    assertThat(parameter(get, "key").getSchema().getType()).isEqualTo("string");
    assertThat(parameter(get, "allowStale").getIn()).isEqualTo("query");
    assertThat(parameter(get, "maxLag").getSchema().getFormat()).isEqualTo("int64");
    Schema<?> answer =
        get.getResponses().get("200").getContent().get("application/json").getSchema();
    assertThat(answer.getProperties().get("value").get$ref()).endsWith("/Revenue");
    Schema<?> revenue = this.openApi.getComponents().getSchemas().get("Revenue");
    assertThat(revenue.getProperties()).containsOnlyKeys("orders", "total", "max");
    assertThat(revenue.getProperties().get("total").getType()).isEqualTo("number");
    assertThat(get.getResponses().get("200").getHeaders())
        .containsOnlyKeys("Matview-Served-By", "Matview-Replica", "Matview-Offset-Lag");
    assertThat(get.getResponses()).containsKeys("400", "404", "503", "504");
    assertThat(get.getResponses().get("503").getHeaders()).containsKey("Retry-After");
    assertThat(
            get.getResponses()
                .get("404")
                .getContent()
                .get("application/problem+json")
                .getSchema()
                .get$ref())
        .endsWith("/" + ViewSchemas.PROBLEM);
    assertThat(operation("/views/revenue/batch").getPost().getRequestBody()).isNotNull();
    assertThat(parameter(operation("/views/revenue/keys").getGet(), "cursor")).isNotNull();
  }

  @Test
  void describesAWindowedViewsWindowLookupWithItsLongKeyAndTimeRange() {
    Operation windows = operation("/views/per-minute/keys/{key}/windows").getGet();

    assertThat(parameter(windows, "key").getSchema().getFormat()).isEqualTo("int64");
    assertThat(parameter(windows, "from").getSchema().getFormat()).isEqualTo("date-time");
    Schema<?> answer =
        windows.getResponses().get("200").getContent().get("application/json").getSchema();
    Schema<?> window = answer.getProperties().get("windows").getItems();
    assertThat(window.getProperties()).containsOnlyKeys("start", "end", "value");
    assertThat(window.getProperties().get("value").getFormat()).isEqualTo("int64");
    assertThat(this.openApi.getPaths()).doesNotContainKey("/views/per-minute/keys/{key}");
    assertThat(operation("/views/per-minute/windows").getGet()).isNotNull();
  }

  @Test
  void describesAnAvroRecordByItsSchemaAsAnswersWriteIt() {
    Schema<?> parcel = value("/views/parcels/keys/{key}");

    assertThat(parcel.getProperties())
        .containsOnlyKeys(
            Parcel.getClassSchema().getFields().stream().map(field -> field.name()).toList());
    assertThat(parcel.getRequired()).contains("id", "insured");
    Map<String, Schema> fields = parcel.getProperties();
    assertThat(fields.get("id").getType()).isEqualTo("string");
    assertThat(fields.get("weight").getType()).isEqualTo("number");
    assertThat(fields.get("sentAt").getFormat()).isEqualTo("date-time");
    assertThat(fields.get("deliveredOn").getFormat()).isEqualTo("date");
    assertThat(fields.get("deliveredOn").getNullable()).isTrue();
    assertThat(fields.get("trackingId").getFormat()).isEqualTo("uuid");
    assertThat(fields.get("status").getEnum()).containsExactly("SENT", "DELIVERED");
    assertThat(fields.get("sender").getProperties()).containsOnlyKeys("street", "city");
    assertThat(fields.get("stops").getItems().getProperties()).containsOnlyKeys("street", "city");
    assertThat(((Schema<?>) fields.get("labels").getAdditionalProperties()).getType())
        .isEqualTo("string");
    assertThat(fields.get("checksum").getFormat()).isEqualTo("byte");
    assertThat(fields.get("photo").getNullable()).isTrue();
    assertThat(fields.get("insured").getFormat()).isEqualTo("int64");
    assertThat(fields.get("volume").getFormat()).isEqualTo("double");
    assertThat(fields.get("fragile").getType()).isEqualTo("boolean");
    assertThat(value("/views/scans/keys/{key}").getType()).isEqualTo("object");
  }

  @Test
  void replacesTheGenericViewPathsAndKeepsTheOthers() {
    assertThat(this.openApi.getComponents().getSchemas())
        .containsOnlyKeys("Revenue", ViewSchemas.PROBLEM, "Kept");
    assertThat(this.openApi.getPaths())
        .containsKey("/views")
        .containsKey("/orders")
        .doesNotContainKeys(
            "/views/{view}/keys/{key}", "/views/{view}/partitions/{partition}/keys");
  }

  private OpenAPI documented() {
    OpenAPI api =
        new OpenAPI()
            .paths(
                new Paths()
                    .addPathItem("/views", new PathItem().get(new Operation()))
                    .addPathItem(
                        "/orders",
                        new PathItem()
                            .post(
                                new Operation()
                                    .responses(
                                        LookupOperations.answers(
                                            new Schema<>().$ref("#/components/schemas/Kept"),
                                            false,
                                            false))))
                    .addPathItem("/views/{view}/keys/{key}", new PathItem().get(new Operation()))
                    .addPathItem(
                        "/views/{view}/partitions/{partition}/keys",
                        new PathItem().get(new Operation())));
    api.components(
        new Components()
            .addSchemas("Kept", new Schema<>().type("object"))
            .addSchemas("SliceBodyKeyItem", new Schema<>().type("object")));
    new ViewApiDocs(this.registry, "/views").customise(api);
    return api;
  }

  private Schema<?> value(String path) {
    Schema<?> answer =
        operation(path)
            .getGet()
            .getResponses()
            .get("200")
            .getContent()
            .get("application/json")
            .getSchema();
    return answer.getProperties().get("value");
  }

  private PathItem operation(String path) {
    assertThat(this.openApi.getPaths()).containsKey(path);
    return this.openApi.getPaths().get(path);
  }

  private static Parameter parameter(Operation operation, String name) {
    return operation.getParameters().stream()
        .filter((parameter) -> parameter.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no parameter " + name));
  }

  record Order(String customerId, Long shop, BigDecimal amount, Instant ts) {}

  record Revenue(long orders, BigDecimal total, BigDecimal max) {}

  static final class RevenueAggregation
      implements dev.matview.view.Aggregation<String, Order, Revenue> {

    @Override
    public Revenue initial() {
      return new Revenue(0, BigDecimal.ZERO, BigDecimal.ZERO);
    }

    @Override
    public Revenue add(String customer, Order order, Revenue revenue) {
      return new Revenue(
          revenue.orders() + 1,
          revenue.total().add(order.amount()),
          revenue.max().max(order.amount()));
    }
  }
}
