package dev.matview.autoconfigure;

import dev.matview.openapi.ViewApiDocs;
import dev.matview.topology.ViewRegistry;
import dev.matview.web.ViewController;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** With springdoc-openapi present, describes each view's own endpoints ({@link ViewApiDocs}). */
@AutoConfiguration(after = MatviewWebAutoConfiguration.class)
@ConditionalOnClass(OpenApiCustomizer.class)
@ConditionalOnBean(ViewController.class)
public final class MatviewOpenApiAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ViewApiDocs matviewViewApiDocs(ViewRegistry registry, MatviewProperties properties) {
    return new ViewApiDocs(registry, properties.getWeb().basePathWithoutTrailingSlash());
  }
}
