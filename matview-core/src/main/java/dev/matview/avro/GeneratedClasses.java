package dev.matview.avro;

import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.jspecify.annotations.Nullable;

/**
 * The specific data of one class generated from an Avro schema: the classes of the records, enums
 * and fixed types its own schema names, with the logical type conversions it was generated with.
 * Avro's own lookup loads a class by the name a schema gives only from packages trusted by the
 * system property {@code org.apache.avro.SERIALIZABLE_PACKAGES} (from Avro 1.12.2); these classes
 * are named by the schema of the class the application chose, never by the bytes read, so they are
 * loaded without asking it.
 */
final class GeneratedClasses extends SpecificData {

  private final Map<String, Class<?>> classes = new HashMap<>();

  GeneratedClasses(Class<?> type, Schema schema, SpecificData generated) {
    super(type.getClassLoader());
    generated.getConversions().forEach(this::addLogicalTypeConversion);
    load(schema, type.getClassLoader());
  }

  @Override
  @SuppressWarnings("rawtypes")
  public @Nullable Class getClass(Schema schema) {
    return switch (schema.getType()) {
      case RECORD, ENUM, FIXED -> this.classes.get(schema.getFullName());
      default -> super.getClass(schema);
    };
  }

  private void load(Schema schema, ClassLoader loader) {
    switch (schema.getType()) {
      case RECORD, ENUM, FIXED -> {
        if (this.classes.containsKey(schema.getFullName())) {
          return;
        }
        try {
          this.classes.put(
              schema.getFullName(),
              Class.forName(SpecificData.getClassName(schema), false, loader));
        } catch (ClassNotFoundException ex) {
          return;
        }
        if (schema.getType() == Schema.Type.RECORD) {
          schema.getFields().forEach(field -> load(field.schema(), loader));
        }
      }
      case ARRAY -> load(schema.getElementType(), loader);
      case MAP -> load(schema.getValueType(), loader);
      case UNION -> schema.getTypes().forEach(branch -> load(branch, loader));
      default -> {}
    }
  }
}
