package dev.matview.docs;

import dev.matview.docs.ConfigurationMetadata.Property;
import java.util.Optional;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.ConversionException;
import org.springframework.core.convert.ConversionService;
import org.springframework.util.ClassUtils;

/**
 * Holds a property a page sets to the configuration metadata: a name of Matview's or the sample's
 * must exist and not be deprecated, and a value of any property the metadata knows must convert to
 * its type.
 */
final class PropertyCheck {

  private static final ConversionService CONVERSION =
      ApplicationConversionService.getSharedInstance();

  private PropertyCheck() {}

  /** What is wrong with {@code name} set to {@code value} at {@code where}, if anything. */
  static Optional<String> problem(String where, String name, String value) {
    Optional<Property> property = ConfigurationMetadata.all().property(name);
    boolean ours = name.startsWith("matview.") || name.startsWith("sample.");
    if (property.isEmpty()) {
      return ours
          ? Optional.of(where + ": " + name + " is no property of the configuration metadata")
          : Optional.empty();
    }
    if (property.get().deprecation().isPresent()) {
      return Optional.of(
          where + ": " + name + " is deprecated. " + property.get().deprecation().get());
    }
    return conversion(where, property.get(), value);
  }

  private static Optional<String> conversion(String where, Property property, String value) {
    if (value.contains("${") || property.type().isEmpty() || property.type().contains("<")) {
      return Optional.empty();
    }
    Class<?> type;
    try {
      type = ClassUtils.forName(property.type(), SampleClasses.loader());
    } catch (ClassNotFoundException | LinkageError ex) {
      return Optional.empty();
    }
    try {
      CONVERSION.convert(value, type);
      return Optional.empty();
    } catch (ConversionException | IllegalArgumentException ex) {
      return Optional.of(
          where
              + ": "
              + property.name()
              + "="
              + value
              + " is no "
              + type.getSimpleName()
              + " ("
              + ex.getMessage()
              + ")");
    }
  }
}
