package dev.matview.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Checks how the application declares its views and sets Matview's properties before any bean is
 * created, whether or not it declares a view Matview can start with.
 */
@AutoConfiguration
public final class MatviewDeclarationsAutoConfiguration {

  @Bean
  static DeclarationChecks matviewDeclarationChecks(Environment environment) {
    return new DeclarationChecks(environment);
  }
}
