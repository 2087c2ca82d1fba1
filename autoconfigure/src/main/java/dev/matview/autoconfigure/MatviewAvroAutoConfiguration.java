package dev.matview.autoconfigure;

import dev.matview.avro.AvroJacksonModule;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.JacksonModule;

/** Adds {@link AvroJacksonModule} to the application's JSON mapper when Apache Avro is present. */
@AutoConfiguration
@ConditionalOnClass(value = JacksonModule.class, name = "org.apache.avro.generic.IndexedRecord")
public final class MatviewAvroAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  AvroJacksonModule matviewAvroJacksonModule() {
    return new AvroJacksonModule();
  }
}
