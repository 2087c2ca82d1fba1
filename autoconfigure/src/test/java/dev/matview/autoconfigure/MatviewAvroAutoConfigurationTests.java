package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.avro.AvroJacksonModule;
import dev.matview.avro.schemas.Address;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** Tests for {@link MatviewAvroAutoConfiguration}. */
class MatviewAvroAutoConfigurationTests {

  private final ApplicationContextRunner contextRunner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  JacksonAutoConfiguration.class, MatviewAvroAutoConfiguration.class));

  @Test
  void theApplicationsMapperWritesAvroRecordsAsTheirFields() {
    this.contextRunner.run(
        (context) ->
            assertThat(
                    context
                        .getBean(JsonMapper.class)
                        .writeValueAsString(new Address("1 Main St", "Lyon")))
                .isEqualTo("{\"street\":\"1 Main St\",\"city\":\"Lyon\"}"));
  }

  @Test
  void backsOffWithoutAvroOnTheClasspath() {
    this.contextRunner
        .withClassLoader(new FilteredClassLoader("org.apache.avro"))
        .run(
            (context) -> {
              assertThat(context).hasNotFailed().hasSingleBean(JsonMapper.class);
              assertThat(context).doesNotHaveBean(AvroJacksonModule.class);
            });
  }

  @Test
  void backsOffWhenTheApplicationDefinesItsOwnModule() {
    this.contextRunner
        .withUserConfiguration(OwnModuleConfiguration.class)
        .run(
            (context) ->
                assertThat(context.getBean(AvroJacksonModule.class))
                    .isSameAs(context.getBean(OwnModuleConfiguration.class).module));
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnModuleConfiguration {

    final AvroJacksonModule module = new AvroJacksonModule();

    @Bean
    AvroJacksonModule ownAvroModule() {
      return this.module;
    }
  }
}
