package dev.matview.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.PropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

/** The settings of a {@code yaml} or {@code properties} block, read as Spring Boot reads them. */
final class Settings {

  private Settings() {}

  /**
   * The names and values the block sets, each document of a YAML block in turn.
   *
   * @throws IllegalArgumentException naming the block when Spring Boot cannot read it
   */
  static Map<String, String> of(CodeBlock block) {
    PropertySourceLoader loader =
        block.language().equals("yaml")
            ? new YamlPropertySourceLoader()
            : new PropertiesPropertySourceLoader();
    List<PropertySource<?>> documents;
    try {
      documents =
          loader.load(
              block.where(),
              new ByteArrayResource(block.code().getBytes(StandardCharsets.UTF_8), block.where()));
    } catch (IOException | RuntimeException ex) {
      throw new IllegalArgumentException(
          block.where() + ": Spring Boot cannot read this " + block.language() + ": " + ex, ex);
    }
    Map<String, String> settings = new LinkedHashMap<>();
    for (PropertySource<?> document : documents) {
      EnumerablePropertySource<?> names = (EnumerablePropertySource<?>) document;
      for (String name : names.getPropertyNames()) {
        settings.put(name, String.valueOf(document.getProperty(name)));
      }
    }
    if (settings.isEmpty()) {
      throw new IllegalArgumentException(block.where() + ": sets no property");
    }
    return settings;
  }
}
