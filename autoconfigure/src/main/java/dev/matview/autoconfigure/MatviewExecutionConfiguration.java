package dev.matview.autoconfigure;

import dev.matview.execution.MatviewExecutors;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The executors every thread of Matview runs on; every bean that hands them work depends on them,
 * so they close last, after every lifecycle (the web server's graceful shutdown and Kafka Streams'
 * closing stores included) has stopped.
 */
@Configuration(proxyBeanMethods = false)
final class MatviewExecutionConfiguration {

  @Bean
  @ConditionalOnMissingBean
  MatviewExecutors matviewExecutors() {
    return new MatviewExecutors();
  }
}
