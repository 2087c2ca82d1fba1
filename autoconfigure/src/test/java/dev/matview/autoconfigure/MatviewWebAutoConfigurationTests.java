package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.matview.openapi.ViewApiDocs;
import dev.matview.query.ViewBatchService;
import dev.matview.query.ViewQueryService;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import dev.matview.web.ProblemResolver;
import dev.matview.web.ViewController;
import dev.matview.web.ViewProblemHandler;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.servlet.DispatcherServlet;

/** Tests for {@link MatviewWebAutoConfiguration}. */
class MatviewWebAutoConfigurationTests {

  private static final AutoConfigurations MATVIEW =
      AutoConfigurations.of(
          MatviewAutoConfiguration.class,
          MatviewWebAutoConfiguration.class,
          KafkaAutoConfiguration.class);

  private static final String[] KAFKA_STREAMS_PROPERTIES = {
    "spring.kafka.streams.application-id=matview-test", "spring.kafka.streams.auto-startup=false"
  };

  private final WebApplicationContextRunner contextRunner =
      new WebApplicationContextRunner()
          .withConfiguration(MATVIEW)
          .withPropertyValues(KAFKA_STREAMS_PROPERTIES);

  @Test
  void describesTheViewsInTheOpenApiDocumentWhenSpringdocIsPresentAndOnlyThen() {
    this.contextRunner
        .withConfiguration(AutoConfigurations.of(MatviewOpenApiAutoConfiguration.class))
        .withUserConfiguration(ViewConfiguration.class)
        .run((context) -> assertThat(context).hasSingleBean(ViewApiDocs.class));
    this.contextRunner
        .withConfiguration(AutoConfigurations.of(MatviewOpenApiAutoConfiguration.class))
        .withClassLoader(new FilteredClassLoader(OpenApiCustomizer.class))
        .withUserConfiguration(ViewConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ViewController.class);
              assertThat(context).doesNotHaveBean(ViewApiDocs.class);
            });
  }

  @Test
  void registersTheEndpointsInAServletWebApplication() {
    this.contextRunner
        .withUserConfiguration(ViewConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ViewController.class);
              assertThat(context).hasSingleBean(ViewProblemHandler.class);
            });
  }

  @Test
  void setsTheApplicationServerInAServletWebApplication() {
    this.contextRunner
        .withUserConfiguration(ViewConfiguration.class)
        .run((context) -> assertThat(context).hasSingleBean(ApplicationServerInitializer.class));
  }

  @Test
  void doesNotRegisterTheEndpointsWhenDisabled() {
    this.contextRunner
        .withUserConfiguration(ViewConfiguration.class)
        .withPropertyValues("matview.web.enabled=false")
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ViewQueryService.class);
              assertThat(context).doesNotHaveBean(ViewController.class);
              assertThat(context).doesNotHaveBean(ViewProblemHandler.class);
            });
  }

  @Test
  void doesNotRegisterTheEndpointsWithoutViews() {
    this.contextRunner.run(
        (context) -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(ViewController.class);
          assertThat(context).doesNotHaveBean(ViewProblemHandler.class);
        });
  }

  @Test
  void doesNotRegisterTheEndpointsWithoutSpringMvc() {
    this.contextRunner
        .withUserConfiguration(ViewConfiguration.class)
        .withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ViewQueryService.class);
              assertThat(context).doesNotHaveBean(ViewController.class);
            });
  }

  @Test
  void doesNotRegisterTheEndpointsInANonWebApplication() {
    new ApplicationContextRunner()
        .withConfiguration(MATVIEW)
        .withPropertyValues(KAFKA_STREAMS_PROPERTIES)
        .withUserConfiguration(ViewConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ViewQueryService.class);
              assertThat(context).doesNotHaveBean(ViewController.class);
              assertThat(context).doesNotHaveBean(ViewProblemHandler.class);
              assertThat(context).doesNotHaveBean(ApplicationServerInitializer.class);
            });
  }

  @Test
  void doesNotRegisterTheEndpointsInAReactiveWebApplication() {
    new ReactiveWebApplicationContextRunner()
        .withConfiguration(MATVIEW)
        .withPropertyValues(KAFKA_STREAMS_PROPERTIES)
        .withUserConfiguration(ViewConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ViewQueryService.class);
              assertThat(context).doesNotHaveBean(ViewController.class);
            });
  }

  @Test
  void registersProblemDetailsForFailuresOutsideTheControllers() {
    this.contextRunner
        .withUserConfiguration(ViewConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ProblemResolver.class);
              assertThat(context).hasBean("matviewProblemErrorPageFilter");
              assertThat(context).hasSingleBean(ProblemErrorReportValveCustomizer.class);
            });
  }

  @Test
  void leavesTomcatsErrorReportAloneWhenServerProblemDetailsAreDisabled() {
    this.contextRunner
        .withUserConfiguration(ViewConfiguration.class)
        .withPropertyValues("matview.web.server-problem-details=false")
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ProblemResolver.class);
              assertThat(context).doesNotHaveBean(ProblemErrorReportValveCustomizer.class);
            });
  }

  @Test
  void failsFastOnAKeyLengthLimitBelowOneByte() {
    this.contextRunner
        .withUserConfiguration(ViewConfiguration.class)
        .withPropertyValues("matview.web.max-key-length=0B")
        .run(
            (context) ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining("matview.web.max-key-length"));
  }

  @Test
  void failsFastOnABatchBodyLimitBelowOneByte() {
    this.contextRunner
        .withUserConfiguration(ViewConfiguration.class)
        .withPropertyValues("matview.web.max-batch-body=0B")
        .run(
            (context) ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining("matview.web.max-batch-body"));
  }

  @Test
  void failsFastOnAChangeHistoryBelowOneByteANegativeLingerOrTheCountItReplaced() {
    for (String[] setting :
        new String[][] {
          {"matview.changes.history-size=0B", "matview.changes.history-size"},
          {"matview.changes.history-linger=-1s", "matview.changes.history-linger"},
          {"matview.changes.history=1000", "matview.changes.history-size"}
        }) {
      this.contextRunner
          .withUserConfiguration(ViewConfiguration.class)
          .withPropertyValues(setting[0])
          .run(
              (context) ->
                  assertThat(context)
                      .getFailure()
                      .rootCause()
                      .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                      .hasMessageContaining(setting[1]));
    }
  }

  @Test
  void backsOffWhenUserDefinesOwnViewProblemHandler() {
    this.contextRunner
        .withUserConfiguration(ViewConfiguration.class, UserProblemHandlerConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ViewProblemHandler.class);
              assertThat(context).hasBean("userViewProblemHandler");
              assertThat(context).hasSingleBean(ViewController.class);
            });
  }

  @Test
  void backsOffWhenUserDefinesOwnViewController() {
    this.contextRunner
        .withUserConfiguration(ViewConfiguration.class, UserControllerConfiguration.class)
        .run(
            (context) -> {
              assertThat(context).hasSingleBean(ViewController.class);
              assertThat(context).hasBean("userViewController");
            });
  }

  @Test
  void listsViewsUnderTheDefaultBasePath() {
    this.contextRunner
        .withConfiguration(mvc())
        .withUserConfiguration(ViewConfiguration.class)
        .run(
            (context) -> {
              MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
              mvc.perform(get("/views"))
                  .andExpect(status().isOk())
                  .andExpect(jsonPath("$[0].name").value("sales-per-shop"))
                  .andExpect(jsonPath("$[0].kind").value("table"))
                  .andExpect(jsonPath("$[0].storeName").value("sales-per-shop"))
                  .andExpect(
                      jsonPath("$[0].changelogTopic")
                          .value("matview-test-sales-per-shop-changelog"))
                  .andExpect(jsonPath("$[0].sourceTopic").value("sales"));
            });
  }

  @Test
  void listsViewsUnderAConfiguredBasePath() {
    this.contextRunner
        .withConfiguration(mvc())
        .withUserConfiguration(ViewConfiguration.class)
        .withPropertyValues("matview.web.base-path=/api/views")
        .run(
            (context) -> {
              MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
              mvc.perform(get("/api/views"))
                  .andExpect(status().isOk())
                  .andExpect(jsonPath("$[0].name").value("sales-per-shop"));
              mvc.perform(get("/views")).andExpect(status().isNotFound());
            });
  }

  @Test
  void answersAnUnknownViewWithAProblem() {
    this.contextRunner
        .withConfiguration(mvc())
        .withUserConfiguration(ViewConfiguration.class)
        .run(
            (context) -> {
              MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
              mvc.perform(get("/views/nope/keys/shop-1"))
                  .andExpect(status().isNotFound())
                  .andExpect(jsonPath("$.status").value(404))
                  .andExpect(jsonPath("$.view").value("nope"));
            });
  }

  private static AutoConfigurations mvc() {
    return AutoConfigurations.of(
        JacksonAutoConfiguration.class,
        HttpMessageConvertersAutoConfiguration.class,
        DispatcherServletAutoConfiguration.class,
        WebMvcAutoConfiguration.class);
  }

  record Sale(String shop, long amount, Instant at) {}

  @Configuration(proxyBeanMethods = false)
  static class ViewConfiguration {

    @MaterializedView("sales-per-shop")
    ViewDefinition<String, Sale, Long> salesPerShop() {
      return Views.from("sales", Sale.class).groupBy(String.class, Sale::shop).count();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserProblemHandlerConfiguration {

    @Bean
    ViewProblemHandler userViewProblemHandler() {
      return new ViewProblemHandler();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserControllerConfiguration {

    @Bean
    ViewController userViewController(
        ViewQueryService queryService, ViewBatchService batchService) {
      return new ViewController(queryService, batchService);
    }
  }
}
