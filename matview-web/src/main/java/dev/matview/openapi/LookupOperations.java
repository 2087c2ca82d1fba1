package dev.matview.openapi;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.DateTimeSchema;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The parts every lookup operation shares: its parameters, headers and problem answers. */
final class LookupOperations {

  private LookupOperations() {}

  /** A GET or POST of one view, tagged with the view's name. */
  static Operation operation(String view, String summary, String id) {
    return new Operation().addTagsItem(tag(view)).summary(summary).operationId(id);
  }

  /** The tag of the operations of {@code view}. */
  static String tag(String view) {
    return "view " + view;
  }

  /** The key as the last path segment but one or the last. */
  static Parameter pathKey(Schema<?> schema) {
    return key(
        "path",
        schema,
        "the key, percent-encoded ('/' as %2F); a key that is '.' or '..', or holds '\\' or a"
            + " control character, cannot be written in a path: ask for it with the query"
            + " parameter key instead");
  }

  /** The key as the query parameter {@code key}, which carries any key. */
  static Parameter queryKey(Schema<?> schema) {
    return key(
        "query",
        schema,
        "the key, percent-encoded as any query parameter (a '+' is a space: write a plus as"
            + " %2B); carries any key the view accepts");
  }

  private static Parameter key(String in, Schema<?> schema, String description) {
    return new Parameter()
        .in(in)
        .name("key")
        .required(true)
        .schema(schema)
        .description(description);
  }

  /** A query parameter. */
  static Parameter query(String name, Schema<?> schema, String description) {
    return new Parameter()
        .in("query")
        .name(name)
        .required(false)
        .schema(schema)
        .description(description);
  }

  /** {@code allowStale}, {@code maxLag} and {@code isolation}, the per-request read options. */
  static Operation staleReads(Operation operation) {
    return operation
        .addParametersItem(
            query(
                "isolation",
                new StringSchema()._enum(List.of("committed", "uncommitted")),
                "committed: only state that committed transactions left, the default for table"
                    + " views under exactly_once_v2; uncommitted: state as applied, the default"
                    + " otherwise"))
        .addParametersItem(
            query(
                "allowStale",
                new BooleanSchema(),
                "whether a standby or restoring replica may answer; default"
                    + " matview.standby-reads.enabled"))
        .addParametersItem(
            query(
                "maxLag",
                new IntegerSchema().format("int64").minimum(java.math.BigDecimal.ZERO),
                "most changelog offsets such a replica may lag; default"
                    + " matview.standby-reads.max-lag"));
  }

  /** {@code from} and {@code to} as ISO-8601 instants. */
  static Operation timeRange(Operation operation, String what) {
    return operation
        .addParametersItem(query("from", new DateTimeSchema(), "earliest " + what))
        .addParametersItem(query("to", new DateTimeSchema(), "latest " + what));
  }

  /** {@code limit} and {@code cursor} of a scan page. */
  static Operation paging(Operation operation) {
    return operation
        .addParametersItem(
            query(
                "limit",
                new IntegerSchema().minimum(java.math.BigDecimal.ONE),
                "most items in the page; default 100, at most matview.web.max-page-size"))
        .addParametersItem(
            query("cursor", new StringSchema(), "the nextCursor of the previous page"));
  }

  /**
   * A lookup's answers: {@code ok} (with the replica's headers), a 404 if it may, and every
   * problem.
   */
  static ApiResponses answers(Schema<?> ok, boolean fromOneReplica, boolean notFound) {
    ApiResponse answer = json("The answer", ok);
    if (fromOneReplica) {
      answer.headers(replicaHeaders());
    }
    ApiResponses responses =
        new ApiResponses()
            .addApiResponse("200", answer)
            .addApiResponse(
                "400", problem("A key, instant, bound, limit or cursor that cannot be parsed"));
    if (notFound) {
      responses.addApiResponse(
          "404", problem("The view has no value for the key").headers(replicaHeaders()));
    }
    return responses
        .addApiResponse(
            "503",
            problem("No replica may answer now: rebalancing, restoring, lagging or unreachable")
                .addHeaderObject(
                    "Retry-After",
                    new Header()
                        .description("seconds to wait before asking again")
                        .schema(new IntegerSchema())))
        .addApiResponse("504", problem("The owning instance did not answer in time"));
  }

  /** A JSON answer of {@code schema}. */
  static ApiResponse json(String description, Schema<?> schema) {
    return new ApiResponse()
        .description(description)
        .content(new Content().addMediaType("application/json", new MediaType().schema(schema)));
  }

  /** A problem detail answer. */
  static ApiResponse problem(String description) {
    return new ApiResponse()
        .description(description)
        .content(
            new Content()
                .addMediaType(
                    "application/problem+json", new MediaType().schema(ViewSchemas.problemRef())));
  }

  private static Map<String, Header> replicaHeaders() {
    Map<String, Header> headers = new LinkedHashMap<>();
    headers.put(
        "Matview-Served-By",
        new Header()
            .description("host:port of the instance whose store answered")
            .schema(new StringSchema()));
    headers.put(
        "Matview-Replica",
        new Header()
            .description("active or standby")
            .schema(new StringSchema()._enum(java.util.List.of("active", "standby"))));
    headers.put(
        "Matview-Offset-Lag",
        new Header()
            .description("the answering store partition's changelog lag in offsets")
            .schema(new IntegerSchema().format("int64")));
    return headers;
  }
}
