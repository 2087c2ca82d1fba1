package dev.matview.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/** Where the environment took a property's value from, to say so beside a bad value. */
final class PropertyOrigins {

  private final @Nullable Environment environment;

  PropertyOrigins(@Nullable Environment environment) {
    this.environment = environment;
  }

  /**
   * A sentence that names where {@code name}'s value comes from, starting with a line break, or
   * nothing when the environment does not know.
   */
  String of(String name) {
    if (!(this.environment instanceof ConfigurableEnvironment configurable)
        || !ConfigurationPropertyName.isValid(name)) {
      return "";
    }
    ConfigurationPropertyName property = ConfigurationPropertyName.of(name);
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(configurable)) {
      ConfigurationProperty found = source.getConfigurationProperty(property);
      if (found != null) {
        return found.getOrigin() != null
            ? System.lineSeparator() + "The value comes from " + found.getOrigin() + "."
            : "";
      }
    }
    return "";
  }
}
