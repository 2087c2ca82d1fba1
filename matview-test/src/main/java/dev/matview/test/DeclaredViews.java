package dev.matview.test;

import dev.matview.autoconfigure.ViewDefinitionBeans;
import dev.matview.view.ViewDefinition;
import java.util.Arrays;
import java.util.Map;
import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/** The views that configuration classes declare as {@code @MaterializedView} beans. */
final class DeclaredViews {

  private DeclaredViews() {}

  /**
   * Every view that {@code configurations} declare, under the name the starter gives it; other
   * beans are not created.
   *
   * @throws IllegalArgumentException when they declare none
   */
  static Map<String, ViewDefinition<?, ?, ?>> of(Class<?>... configurations) {
    try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
      context.addBeanFactoryPostProcessor(new LazyInitializationBeanFactoryPostProcessor());
      context.register(configurations);
      context.refresh();
      Map<String, ViewDefinition<?, ?, ?>> found = ViewDefinitionBeans.collect(context);
      if (found.isEmpty()) {
        throw new IllegalArgumentException(
            Arrays.stream(configurations).map(Class::getName).toList()
                + " declare no view: annotate methods that return a ViewDefinition with"
                + " @MaterializedView, or add views with view(name, definition)");
      }
      return found;
    }
  }
}
