package dev.matview.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Configuration;

/** The Spring Boot version check stops start-up outside 4.x, saying what to do. */
@ExtendWith(OutputCaptureExtension.class)
class SpringBootVersionCheckTests {

  @Test
  void passesOnTheSpringBootItIsBuiltFor() {
    assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check("4.0.7"));
    assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check("4.0.0-SNAPSHOT"));
  }

  @Test
  void passesSilentlyOnEveryTestedLine(CapturedOutput output) {
    SpringBootVersionCheck.check("4.0.7");
    SpringBootVersionCheck.check("4.1.2");
    assertThat(output).doesNotContain("Matview is built and tested");
  }

  @Test
  void stopsOnSpringBoot3SayingWhichVersionItFoundWhichItNeedsAndHowToFixIt() {
    assertThatExceptionOfType(UnsupportedSpringBootException.class)
        .isThrownBy(() -> SpringBootVersionCheck.check("3.5.6"))
        .satisfies(
            (ex) -> {
              assertThat(ex.getFound()).isEqualTo("3.5.6");
              assertThat(ex.getDescription())
                  .isEqualTo(
                      "Matview needs Spring Boot 4.0.x or 4.1.x, but this application runs on"
                          + " Spring Boot 3.5.6. Matview and the Spring Boot 4 modules it brings"
                          + " use classes that Spring Boot 3.5.6 does not have, so start-up would"
                          + " fail later on a missing class, such as"
                          + " org.springframework.boot.thread.Threading.");
              assertThat(ex.getAction())
                  .isEqualTo(
                      "Build the application on Spring Boot 4.0.x or 4.1.x: set the version of"
                          + " spring-boot-starter-parent (or of the spring-boot-dependencies BOM"
                          + " you import, or of the Spring Boot Gradle plugin) to a 4.0.x or 4.1.x"
                          + " release.");
              assertThat(ex)
                  .hasMessage(ex.getDescription() + System.lineSeparator() + ex.getAction());
            });
  }

  @Test
  void stopsOnALaterMajorVersion() {
    assertThatExceptionOfType(UnsupportedSpringBootException.class)
        .isThrownBy(() -> SpringBootVersionCheck.check("5.0.0"))
        .withMessageContaining("runs on Spring Boot 5.0.0");
  }

  @Test
  void warnsOnALaterMinorVersionNamingTheTestedLines(CapturedOutput output) {
    SpringBootVersionCheck.check("4.2.0");
    assertThat(output)
        .contains(
            "Matview is built and tested for Spring Boot 4.0.x or 4.1.x, and this application"
                + " runs on Spring Boot 4.2.0; if it fails to start or to serve the views, use"
                + " Spring Boot 4.0.x or 4.1.x.");
  }

  @Test
  void passesAVersionItCannotRead() {
    assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check(null));
    assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check("unknown"));
  }

  @Test
  void runsFromSpringFactoriesBeforeTheContextIsCreatedAndIsReportedWithWhatToDo(
      CapturedOutput output) {
    SpringApplication application = new SpringApplication(EmptyConfiguration.class);
    assertThat(application.getListeners()).hasAtLeastOneElementOfType(SpringBootVersionCheck.class);
    List<ApplicationListener<?>> listeners =
        application.getListeners().stream()
            .<ApplicationListener<?>>map(
                (listener) ->
                    (listener instanceof SpringBootVersionCheck)
                        ? new SpringBootVersionCheck(() -> "3.5.6", () -> "4.4.0")
                        : listener)
            .toList();
    application.setListeners(listeners);
    application.setWebApplicationType(WebApplicationType.NONE);
    application.setBannerMode(Banner.Mode.OFF);
    assertThatExceptionOfType(UnsupportedSpringBootException.class).isThrownBy(application::run);
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("Matview needs Spring Boot 4.0.x or 4.1.x, but this application runs on Spring")
        .contains("Build the application on Spring Boot 4.0.x or 4.1.x");
  }

  @Configuration(proxyBeanMethods = false)
  static class EmptyConfiguration {}
}
