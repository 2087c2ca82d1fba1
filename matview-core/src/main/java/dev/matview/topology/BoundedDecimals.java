package dev.matview.topology;

import dev.matview.view.DecimalBounds;
import dev.matview.view.NumberOutOfBoundsException;
import java.math.BigDecimal;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.deser.jdk.NumberDeserializers;
import tools.jackson.databind.module.SimpleModule;

/**
 * Holds every {@link BigDecimal} that Matview reads or writes as JSON within {@link DecimalBounds}:
 * a number outside them is refused as it is read, before any arithmetic, and no aggregate is
 * written that could not be read back.
 */
final class BoundedDecimals {

  private BoundedDecimals() {}

  /** {@code mapper} with BigDecimal read and written within {@code bounds}. */
  static ObjectMapper apply(ObjectMapper mapper, DecimalBounds bounds) {
    SimpleModule module = new SimpleModule("matview-bounded-decimals");
    module.addDeserializer(BigDecimal.class, new Reader(bounds));
    module.addSerializer(BigDecimal.class, new Writer(bounds));
    return mapper.rebuild().addModule(module).build();
  }

  private static final class Reader extends ValueDeserializer<BigDecimal> {

    private final DecimalBounds bounds;

    Reader(DecimalBounds bounds) {
      this.bounds = bounds;
    }

    @Override
    public BigDecimal deserialize(JsonParser parser, DeserializationContext context) {
      BigDecimal value =
          NumberDeserializers.BigDecimalDeserializer.instance.deserialize(parser, context);
      try {
        return this.bounds.check(value);
      } catch (NumberOutOfBoundsException ex) {
        throw DatabindException.from(parser, ex.getMessage(), ex);
      }
    }
  }

  private static final class Writer extends ValueSerializer<BigDecimal> {

    private final DecimalBounds bounds;

    Writer(DecimalBounds bounds) {
      this.bounds = bounds;
    }

    @Override
    public void serialize(BigDecimal value, JsonGenerator generator, SerializationContext context) {
      try {
        generator.writeNumber(this.bounds.check(value));
      } catch (NumberOutOfBoundsException ex) {
        throw DatabindException.from(generator, ex.getMessage(), ex);
      }
    }
  }
}
