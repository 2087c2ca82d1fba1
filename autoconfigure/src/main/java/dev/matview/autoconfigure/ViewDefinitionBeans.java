package dev.matview.autoconfigure;

import dev.matview.topology.InvalidViewException;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotationConfigurationException;
import org.springframework.core.type.MethodMetadata;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/** Collects the {@link ViewDefinition} beans under their view names; public for the test kit. */
public final class ViewDefinitionBeans {

  private ViewDefinitionBeans() {}

  /**
   * The view definitions of {@code beanFactory} in bean order, each under its {@link
   * MaterializedView} name or else its bean name, refusing a name declared twice or a method that
   * returns none.
   */
  public static Map<String, ViewDefinition<?, ?, ?>> collect(ListableBeanFactory beanFactory) {
    return declared(beanFactory).definitions();
  }

  /** The registry of {@code beanFactory}'s views, a bad one named with its bean. */
  static ViewRegistry registry(
      ListableBeanFactory beanFactory, ViewSerdes serdes, String applicationId) {
    Declared declared = declared(beanFactory);
    try {
      return ViewRegistry.of(declared.definitions(), serdes, applicationId);
    } catch (InvalidViewException ex) {
      String beanName = declared.beanNames().get(ex.getView());
      throw (beanName != null) ? ex.declaredBy(describe(beanFactory, beanName)) : ex;
    }
  }

  /** Where bean {@code beanName} comes from: {@code bean 'name' of method Type.method()} or not. */
  static String describe(ListableBeanFactory beanFactory, String beanName) {
    String bean = "bean '" + beanName + "'";
    if (!(beanFactory instanceof ConfigurableListableBeanFactory configurable)
        || !configurable.containsBeanDefinition(beanName)) {
      return bean;
    }
    BeanDefinition definition = configurable.getBeanDefinition(beanName);
    if (definition instanceof AnnotatedBeanDefinition annotated
        && annotated.getFactoryMethodMetadata() != null) {
      MethodMetadata method = annotated.getFactoryMethodMetadata();
      return bean
          + " of method "
          + ClassUtils.getShortName(method.getDeclaringClassName())
          + "."
          + method.getMethodName()
          + "()";
    }
    return bean;
  }

  private static Declared declared(ListableBeanFactory beanFactory) {
    Map<String, ViewDefinition<?, ?, ?>> byViewName = new LinkedHashMap<>();
    Map<String, String> beanByViewName = new LinkedHashMap<>();
    @SuppressWarnings("rawtypes")
    Map<String, ViewDefinition> beans = beanFactory.getBeansOfType(ViewDefinition.class);
    requireDefinitions(beanFactory, beans);
    beans.forEach(
        (beanName, definition) -> {
          String viewName = viewName(beanFactory, beanName);
          String otherBean = beanByViewName.putIfAbsent(viewName, beanName);
          if (otherBean != null) {
            throw new InvalidViewException(
                    viewName,
                    "beans '" + otherBean + "' and '" + beanName + "' both declare it",
                    "give each @MaterializedView a distinct name")
                .declaredBy(describe(beanFactory, beanName));
          }
          byViewName.put(viewName, definition);
        });
    return new Declared(byViewName, beanByViewName);
  }

  /** Refuses, before any bean is created, a {@link MaterializedView} method of another type. */
  static void requireDefinitionTypes(ConfigurableListableBeanFactory beanFactory) {
    for (String beanName : beanFactory.getBeanDefinitionNames()) {
      if (beanFactory.getBeanDefinition(beanName) instanceof AnnotatedBeanDefinition annotated
          && annotated.getFactoryMethodMetadata() != null
          && annotated.getFactoryMethodMetadata().isAnnotated(MaterializedView.class.getName())) {
        String returned = annotated.getFactoryMethodMetadata().getReturnTypeName();
        Class<?> type = ClassUtils.resolveClassName(returned, beanFactory.getBeanClassLoader());
        if (!ViewDefinition.class.isAssignableFrom(type)) {
          throw noDefinition(beanFactory, beanName, "returns " + returned);
        }
      }
    }
  }

  /**
   * Refuses a {@link MaterializedView} method whose bean is no view definition: one that returned
   * null or another type would otherwise declare no view without a word.
   */
  @SuppressWarnings("rawtypes")
  private static void requireDefinitions(
      ListableBeanFactory beanFactory, Map<String, ViewDefinition> definitions) {
    for (String beanName : beanFactory.getBeanNamesForAnnotation(MaterializedView.class)) {
      if (!definitions.containsKey(beanName)) {
        Class<?> type = beanFactory.getType(beanName);
        throw noDefinition(
            beanFactory,
            beanName,
            (type == null || ViewDefinition.class.isAssignableFrom(type))
                ? "returned null"
                : "returns " + type.getName());
      }
    }
  }

  private static InvalidViewException noDefinition(
      ListableBeanFactory beanFactory, String beanName, String returns) {
    return new InvalidViewException(
            viewName(beanFactory, beanName),
            "its @MaterializedView method "
                + returns
                + ", not the ViewDefinition a view needs, so it would declare no view",
            "return the ViewDefinition that Views.from(...) builds, ended by an aggregation such"
                + " as count(), latest() or aggregate(...), and declare the method as returning"
                + " ViewDefinition<K, V, A>")
        .declaredBy(describe(beanFactory, beanName));
  }

  private static String viewName(ListableBeanFactory beanFactory, String beanName) {
    MaterializedView annotation = annotation(beanFactory, beanName);
    if (annotation != null && StringUtils.hasText(annotation.value())) {
      return annotation.value();
    }
    return beanName;
  }

  private static @Nullable MaterializedView annotation(
      ListableBeanFactory beanFactory, String beanName) {
    try {
      return beanFactory.findAnnotationOnBean(beanName, MaterializedView.class);
    } catch (AnnotationConfigurationException ex) {
      throw new InvalidViewException(
              beanName,
              "its @MaterializedView names the view twice, differently: " + ex.getMessage(),
              "give the name once, as @MaterializedView(\"name\")")
          .declaredBy(describe(beanFactory, beanName));
    }
  }

  /** The view definitions by view name, and the names of the beans that declare them. */
  private record Declared(
      Map<String, ViewDefinition<?, ?, ?>> definitions, Map<String, String> beanNames) {}
}
