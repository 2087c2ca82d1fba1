package dev.matview.autoconfigure;

import dev.matview.execution.MatviewExecutors;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The executors every thread of Matview runs on. Every bean that hands them work takes them as a
 * dependency, so Spring destroys it first; and beans are destroyed only after every lifecycle has
 * stopped, the web server (its graceful shutdown included) and Kafka Streams among them. So the
 * executors close last of all: the waits of requests still being answered, and the last events that
 * Kafka Streams' closing stores hand to change streams, still run on them.
 */
@Configuration(proxyBeanMethods = false)
final class MatviewExecutionConfiguration {

  @Bean
  @ConditionalOnMissingBean
  MatviewExecutors matviewExecutors() {
    return new MatviewExecutors();
  }
}
