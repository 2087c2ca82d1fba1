package dev.matview.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The {@code matview.*} properties the class path's metadata declares, to refuse a typo. */
final class KnownProperties {

  private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("matview");

  /**
   * The properties of the optional modules, left alone when absent, as a production jar without the
   * development broker still reads an {@code application.yml} that sets it.
   */
  private static final List<ConfigurationPropertyName> OPTIONAL_MODULES =
      List.of(
          ConfigurationPropertyName.of("matview.dev-broker"),
          ConfigurationPropertyName.of("matview.client"));

  private static final String[] METADATA = {
    "META-INF/spring-configuration-metadata.json",
    "META-INF/additional-spring-configuration-metadata.json"
  };

  private final List<ConfigurationPropertyName> names;

  private final List<ConfigurationPropertyName> containers;

  private final List<String> spelled;

  private KnownProperties(List<ConfigurationPropertyName> containers, List<String> spelled) {
    this.names = spelled.stream().map(ConfigurationPropertyName::of).toList();
    this.containers = containers;
    this.spelled = spelled;
  }

  /** The properties the metadata of {@code classLoader}'s jars declare. */
  static KnownProperties declaredIn(@Nullable ClassLoader classLoader) {
    List<ConfigurationPropertyName> containers = new ArrayList<>();
    List<String> spelled = new ArrayList<>();
    JsonMapper mapper = JsonMapper.builder().build();
    ClassLoader loader = classLoader != null ? classLoader : KnownProperties.class.getClassLoader();
    for (String resource : METADATA) {
      for (URL url : urls(loader, resource)) {
        try (InputStream in = url.openStream()) {
          for (JsonNode property : mapper.readTree(in).path("properties")) {
            String name = property.path("name").asString("");
            if (!name.startsWith("matview.") || !ConfigurationPropertyName.isValid(name)) {
              continue;
            }
            spelled.add(name);
            if (isContainer(property.path("type").asString(""))) {
              containers.add(ConfigurationPropertyName.of(name));
            }
          }
        } catch (IOException ex) {
          throw new IllegalStateException("Could not read " + url, ex);
        }
      }
    }
    return new KnownProperties(containers, spelled);
  }

  /** The first {@code matview.*} property set and not declared, or null (also with no metadata). */
  @Nullable ConfigurationProperty firstUnknown(ConfigurableEnvironment environment) {
    if (this.names.isEmpty()) {
      return null;
    }
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      if (!(source instanceof IterableConfigurationPropertySource iterable)
          || source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource) {
        continue;
      }
      ConfigurationPropertyName unknown =
          iterable.stream()
              .filter(name -> ROOT.isAncestorOf(name) && !isKnown(name))
              .findFirst()
              .orElse(null);
      if (unknown != null) {
        return source.getConfigurationProperty(unknown);
      }
    }
    return null;
  }

  /** The declared names, as written in the metadata. */
  List<String> names() {
    return Collections.unmodifiableList(this.spelled);
  }

  private boolean isKnown(ConfigurationPropertyName name) {
    return this.names.contains(name)
        || this.containers.stream().anyMatch(container -> container.isAncestorOf(name))
        || OPTIONAL_MODULES.stream()
            .anyMatch(module -> module.isAncestorOf(name) && !declaresAny(module));
  }

  private boolean declaresAny(ConfigurationPropertyName module) {
    return this.names.stream().anyMatch(module::isAncestorOf);
  }

  private static boolean isContainer(String type) {
    return type.startsWith("java.util.Map")
        || type.startsWith("java.util.List")
        || type.startsWith("java.util.Set")
        || type.endsWith("[]");
  }

  private static List<URL> urls(ClassLoader loader, String resource) {
    try {
      return Collections.list(loader.getResources(resource));
    } catch (IOException ex) {
      throw new IllegalStateException("Could not list " + resource, ex);
    }
  }
}
