package dev.matview.autoconfigure;

import dev.matview.topology.NearestNames;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Fails start-up before any bean is created on mistakes that would otherwise pass without a word:
 * an unknown {@code matview.*} property, or a {@code @MaterializedView} method that returns no
 * view.
 */
final class DeclarationChecks implements BeanFactoryPostProcessor {

  private final Environment environment;

  DeclarationChecks(Environment environment) {
    this.environment = environment;
  }

  @Override
  public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
    if (this.environment instanceof ConfigurableEnvironment configurable) {
      refuseUnknownProperties(configurable, beanFactory.getBeanClassLoader());
    }
    ViewDefinitionBeans.requireDefinitionTypes(beanFactory);
  }

  private static void refuseUnknownProperties(
      ConfigurableEnvironment environment, @Nullable ClassLoader classLoader) {
    KnownProperties known = KnownProperties.declaredIn(classLoader);
    ConfigurationProperty unknown = known.firstUnknown(environment);
    if (unknown == null) {
      return;
    }
    String name = unknown.getName().toString();
    List<String> nearest = NearestNames.of(name, known.names());
    throw new InvalidMatviewPropertyException(
        name,
        unknown.getValue(),
        "Matview has no property of that name, so the setting would do nothing",
        nearest.isEmpty()
            ? "Remove " + name + ", or name one of the properties of the guide's docs/properties.md"
            : "Rename it to " + String.join(" or ", nearest) + ", or remove it");
  }
}
