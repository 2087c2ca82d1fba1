package dev.matview.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/** Checks how the application declares views and sets properties, whether or not it has a view. */
@AutoConfiguration
public final class MatviewDeclarationsAutoConfiguration {

  @Bean
  static DeclarationChecks matviewDeclarationChecks(Environment environment) {
    return new DeclarationChecks(environment);
  }
}
