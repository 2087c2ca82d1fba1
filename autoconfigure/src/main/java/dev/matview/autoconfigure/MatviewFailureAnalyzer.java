package dev.matview.autoconfigure;

import dev.matview.view.StartupFailure;
import dev.matview.view.ViewDefinitionException;
import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanInstantiationException;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Reports every failure that stops start-up for a cause the application's owner can fix (a {@link
 * StartupFailure}, or a {@code matview.*} property that cannot be read as its type) with what is
 * wrong, where, and the fix, before Spring Boot's generic analyzers.
 */
final class MatviewFailureAnalyzer implements FailureAnalyzer, Ordered {

  private final @Nullable Environment environment;

  MatviewFailureAnalyzer(@Nullable Environment environment) {
    this.environment = environment;
  }

  @Override
  public @Nullable FailureAnalysis analyze(Throwable failure) {
    ViewDefinitionException definition = cause(failure, ViewDefinitionException.class);
    if (definition != null) {
      return declaredIn(failure, definition);
    }
    StartupFailure startup = cause(failure, StartupFailure.class);
    if (startup != null) {
      String description = startup.getDescription();
      if (startup instanceof InvalidConfigurationPropertyValueException property) {
        description += origin(property.getName());
      }
      return new FailureAnalysis(description, startup.getAction(), (Throwable) startup);
    }
    BindException bind = cause(failure, BindException.class);
    if (bind != null && bind.getName().toString().startsWith("matview.")) {
      return unreadable(bind);
    }
    return null;
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }

  /** A view definition refused while a bean method built it, named with that method. */
  private static FailureAnalysis declaredIn(Throwable failure, ViewDefinitionException ex) {
    String where = null;
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof BeanCreationException creation && creation.getBeanName() != null) {
        where = "bean '" + creation.getBeanName() + "'";
      }
      if (cause instanceof BeanInstantiationException instantiation
          && instantiation.getConstructingMethod() != null) {
        Method method = instantiation.getConstructingMethod();
        where =
            (where != null ? where + " of " : "")
                + "method "
                + ClassUtils.getShortName(method.getDeclaringClass())
                + "."
                + method.getName()
                + "()";
      }
    }
    String description =
        (where != null)
            ? "The view that " + where + " declares is invalid: " + ex.getProblem() + "."
            : ex.getDescription();
    return new FailureAnalysis(description, ex.getAction(), ex);
  }

  /** A {@code matview.*} property whose text is no value of its type. */
  private FailureAnalysis unreadable(BindException bind) {
    String name = bind.getName().toString();
    ConfigurationProperty property = bind.getProperty();
    ValueForm type = ValueForm.of(bind.getTarget().getType().toClass());
    Throwable reason = bind;
    while (reason.getCause() != null) {
      reason = reason.getCause();
    }
    String description =
        "Property '"
            + name
            + "'"
            + (property != null ? " = '" + property.getValue() + "'" : "")
            + " is not "
            + type.kind()
            + ": "
            + reason.getMessage()
            + origin(name);
    String action =
        "Set "
            + name
            + " to "
            + type.kind()
            + ", "
            + type.example()
            + ", or remove it to use its default.";
    return new FailureAnalysis(description, action, bind);
  }

  /** Where {@code name}'s value comes from, after a line break, or nothing when not known. */
  private String origin(String name) {
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

  private static <T> @Nullable T cause(Throwable failure, Class<T> type) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return type.cast(cause);
      }
    }
    return null;
  }
}
