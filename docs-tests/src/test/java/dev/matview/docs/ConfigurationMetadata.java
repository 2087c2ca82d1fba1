package dev.matview.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The properties that Spring Boot's configuration metadata declares on the test class path (the
 * auto-configuration's, the development broker's, the client's, Spring Boot's own) and in the
 * sample's classes: every {@code META-INF/spring-configuration-metadata.json}.
 */
final class ConfigurationMetadata {

  private static final String RESOURCE = "META-INF/spring-configuration-metadata.json";

  private static final ConfigurationMetadata ALL = read(SampleClasses.loader());

  private final Map<String, Property> properties;

  private ConfigurationMetadata(Map<String, Property> properties) {
    this.properties = properties;
  }

  /** The metadata of every jar and of the sample. */
  static ConfigurationMetadata all() {
    return ALL;
  }

  /** The property {@code name}, if the metadata declares it. */
  Optional<Property> property(String name) {
    return Optional.ofNullable(this.properties.get(name));
  }

  /** The names of the properties that start with {@code prefix} and are not deprecated. */
  Set<String> current(String prefix) {
    Set<String> names = new TreeSet<>();
    this.properties.values().stream()
        .filter(property -> property.name().startsWith(prefix) && property.deprecation().isEmpty())
        .forEach(property -> names.add(property.name()));
    return names;
  }

  /**
   * A property of the metadata.
   *
   * @param name its name
   * @param type its type, such as {@code java.time.Duration}, or empty when none is given
   * @param deprecation why it is deprecated and what replaces it, when it is
   */
  record Property(String name, String type, Optional<String> deprecation) {}

  private static ConfigurationMetadata read(ClassLoader loader) {
    JsonMapper json = JsonMapper.builder().build();
    Map<String, Property> properties = new TreeMap<>();
    try {
      for (URL url : Collections.list(loader.getResources(RESOURCE))) {
        try (InputStream in = url.openStream()) {
          for (JsonNode property : json.readTree(in).path("properties")) {
            String name = property.path("name").asString();
            properties.put(
                name,
                new Property(name, property.path("type").asString(""), deprecation(property)));
          }
        }
      }
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    return new ConfigurationMetadata(properties);
  }

  private static Optional<String> deprecation(JsonNode property) {
    if (!property.path("deprecated").asBoolean(false)) {
      return Optional.empty();
    }
    JsonNode deprecation = property.path("deprecation");
    return Optional.of(
        deprecation.path("reason").asString("deprecated")
            + " Use "
            + deprecation.path("replacement").asString("another property")
            + " instead.");
  }
}
