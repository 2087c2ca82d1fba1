package dev.matview.autoconfigure;

import dev.matview.topology.InvalidViewException;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.StringUtils;

/**
 * Collects the {@link ViewDefinition} beans of a context under their view names; public for
 * Matview's test kit, which builds its views as the starter does.
 */
public final class ViewDefinitionBeans {

  private ViewDefinitionBeans() {}

  /**
   * The view definitions of {@code beanFactory}, in bean order, each under the name of its {@link
   * MaterializedView} or else its bean name.
   *
   * @throws InvalidViewException when two beans declare the same view name
   */
  public static Map<String, ViewDefinition<?, ?, ?>> collect(ListableBeanFactory beanFactory) {
    Map<String, ViewDefinition<?, ?, ?>> byViewName = new LinkedHashMap<>();
    Map<String, String> beanByViewName = new LinkedHashMap<>();
    @SuppressWarnings("rawtypes")
    Map<String, ViewDefinition> beans = beanFactory.getBeansOfType(ViewDefinition.class);
    beans.forEach(
        (beanName, definition) -> {
          String viewName = viewName(beanFactory, beanName);
          String otherBean = beanByViewName.putIfAbsent(viewName, beanName);
          if (otherBean != null) {
            throw new InvalidViewException(
                viewName,
                "beans '" + otherBean + "' and '" + beanName + "' both declare it",
                "give each @MaterializedView a distinct name");
          }
          byViewName.put(viewName, definition);
        });
    return byViewName;
  }

  private static String viewName(ListableBeanFactory beanFactory, String beanName) {
    MaterializedView annotation =
        beanFactory.findAnnotationOnBean(beanName, MaterializedView.class);
    if (annotation != null && StringUtils.hasText(annotation.value())) {
      return annotation.value();
    }
    return beanName;
  }
}
