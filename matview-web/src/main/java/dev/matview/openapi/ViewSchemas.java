package dev.matview.openapi;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.core.converter.ResolvedSchema;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.DateTimeSchema;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import java.util.UUID;
import org.springframework.util.ClassUtils;

/** The schemas of views' keys, values and answers, those they refer to added to the components. */
final class ViewSchemas {

  /** The name of the problem detail schema in the components. */
  static final String PROBLEM = "MatviewProblem";

  /** Whether Apache Avro is on the classpath, so that a value may be an Avro record. */
  private static final boolean AVRO =
      ClassUtils.isPresent(
          "org.apache.avro.generic.IndexedRecord", ViewSchemas.class.getClassLoader());

  private final Components components;

  ViewSchemas(Components components) {
    this.components = components;
    components.addSchemas(PROBLEM, problem());
  }

  /** A key of {@code type} in a URL path segment: records are JSON there, percent-encoded. */
  Schema<?> pathKey(Class<?> type) {
    if (type == Long.class) {
      return new IntegerSchema().format("int64");
    }
    if (type == Integer.class) {
      return new IntegerSchema().format("int32");
    }
    if (type == UUID.class) {
      return new StringSchema().format("uuid");
    }
    if (type == String.class) {
      return new StringSchema();
    }
    return new StringSchema()
        .description("the key as JSON, percent-encoded: a " + type.getSimpleName() + " record");
  }

  /** An instance of {@code type} in a JSON body, as Jackson writes it, or as an Avro record. */
  Schema<?> body(Class<?> type) {
    Schema<?> avro = AVRO ? AvroValueSchemas.of(type) : null;
    if (avro != null) {
      return avro;
    }
    ResolvedSchema resolved =
        ModelConverters.getInstance()
            .resolveAsResolvedSchema(new AnnotatedType(type).resolveAsRef(true));
    if (resolved == null || resolved.schema == null) {
      return new ObjectSchema().description(type.getSimpleName());
    }
    if (resolved.referencedSchemas != null) {
      resolved.referencedSchemas.forEach(this.components::addSchemas);
    }
    return resolved.schema;
  }

  /** {@code {"key": …, "value": …}}. */
  static Schema<?> keyValue(Schema<?> key, Schema<?> value) {
    return new ObjectSchema().addProperty("key", key).addProperty("value", value);
  }

  /** One window of a key: its start, its end and its value. */
  static Schema<?> window(Schema<?> value) {
    return new ObjectSchema()
        .addProperty("start", new DateTimeSchema())
        .addProperty("end", new DateTimeSchema())
        .addProperty("value", value);
  }

  /** {@code {"key": …, "windows": [...]}}. */
  static Schema<?> keyWindows(Schema<?> key, Schema<?> value) {
    return new ObjectSchema()
        .addProperty("key", key)
        .addProperty("windows", new ArraySchema().items(window(value)));
  }

  /** One answer of a batch lookup. */
  static Schema<?> batchItem(Schema<?> key, Schema<?> value) {
    return new ObjectSchema()
        .addProperty("key", key)
        .addProperty("found", new BooleanSchema())
        .addProperty("value", value);
  }

  /** A page of a scan: {@code items} and the cursor of the next page, null on the last. */
  static Schema<?> page(Schema<?> item) {
    return new ObjectSchema()
        .addProperty("items", new ArraySchema().items(item))
        .addProperty("nextCursor", new StringSchema().nullable(true));
  }

  /** A reference to the problem detail schema. */
  static Schema<?> problemRef() {
    return new Schema<>().$ref("#/components/schemas/" + PROBLEM);
  }

  private static Schema<?> problem() {
    return new ObjectSchema()
        .description("An RFC 9457 problem detail")
        .addProperty("type", new StringSchema().format("uri"))
        .addProperty("title", new StringSchema())
        .addProperty("status", new IntegerSchema())
        .addProperty("detail", new StringSchema())
        .addProperty("instance", new StringSchema())
        .addProperty("view", new StringSchema())
        .addProperty("key", new Schema<>().description("the key asked, as parsed"))
        .addProperty("partition", new IntegerSchema())
        .addProperty("parameter", new StringSchema())
        .addProperty(
            "nearestViews",
            new ArraySchema()
                .items(new StringSchema())
                .description("of an unknown view: the views whose names come nearest"))
        .addProperty("retryAfterSeconds", new IntegerSchema().format("int64"));
  }
}
