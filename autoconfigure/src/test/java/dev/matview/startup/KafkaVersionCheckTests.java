package dev.matview.startup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.bootstrap.DefaultBootstrapContext;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.StandardEnvironment;

/** The Kafka version check warns outside the tested lines, naming them, and never stops. */
@ExtendWith(OutputCaptureExtension.class)
class KafkaVersionCheckTests {

  private static final String WARNING = "Matview is tested on Kafka";

  @Test
  void passesSilentlyOnEveryTestedLine(CapturedOutput output) {
    KafkaVersionCheck.check("4.1.2");
    KafkaVersionCheck.check("4.2.2");
    KafkaVersionCheck.check("4.3.1");
    KafkaVersionCheck.check("4.4.0");
    KafkaVersionCheck.check("4.4.1-SNAPSHOT");
    assertThat(output).doesNotContain(WARNING);
  }

  @Test
  void warnsOnALineItIsNotTestedOnNamingTheTestedLines(CapturedOutput output) {
    KafkaVersionCheck.check("4.5.0");
    KafkaVersionCheck.check("3.9.1");
    assertThat(output)
        .contains(
            "Matview is tested on Kafka 4.1.x, 4.2.x, 4.3.x, 4.4.x, and this application runs on"
                + " Kafka 4.5.0; if it fails to start or to serve the views, set the property"
                + " kafka.version of your build to a release of a tested line.")
        .contains("runs on Kafka 3.9.1;");
  }

  @Test
  void passesAVersionItCannotRead(CapturedOutput output) {
    KafkaVersionCheck.check(null);
    KafkaVersionCheck.check("unknown");
    assertThat(output).doesNotContain(WARNING);
    assertThat(KafkaVersionCheck.read(new ClassLoader(null) {})).isNull();
  }

  @Test
  void readsTheKafkaOfThisBuildAsATestedLine() {
    String version = KafkaVersionCheck.onClassPath();
    assertThat(version).matches("\\d+\\.\\d+\\.\\d+.*");
    assertThat(KafkaVersionCheck.TESTED).contains(version.replaceAll("^(\\d+\\.\\d+).*", "$1"));
  }

  @Test
  void runsWithTheSpringBootCheckAsTheEnvironmentIsPrepared(CapturedOutput output) {
    SpringBootVersionCheck check = new SpringBootVersionCheck(() -> "4.0.7", () -> "4.5.0");
    check.onApplicationEvent(
        new ApplicationEnvironmentPreparedEvent(
            new DefaultBootstrapContext(),
            new SpringApplication(),
            new String[0],
            new StandardEnvironment()));
    assertThat(output).contains("runs on Kafka 4.5.0;");
  }
}
