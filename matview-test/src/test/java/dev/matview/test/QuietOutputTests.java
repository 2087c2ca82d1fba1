package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.processes.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A passing test that uses the kit prints no ERROR, no stack trace and no INFO of Kafka's, until
 * its JVM has gone: each runs in a JVM of its own, which exits as a build's test JVM does, closing
 * the slice's application and broker in a shutdown hook. The three test JVMs mostly wait for their
 * brokers and applications, so they run at once.
 */
@Execution(ExecutionMode.CONCURRENT)
class QuietOutputTests {

  /**
   * Logs each line as its level and whole logger name, as logback does before Spring Boot sets it
   * up, so that a logger of Kafka's is known by its name.
   */
  private static final String LOG_PATTERN = "-Dlogging.pattern.console=%level %logger %message%n";

  /**
   * A line of Kafka's at INFO: of its clients, Kafka Streams and the broker, and of Kafka Streams'
   * client, which logs under the class of Matview's subclass.
   */
  private static final Pattern KAFKA_INFO =
      Pattern.compile(
          "\\bINFO\\s+(org\\.apache\\.kafka\\.|kafka\\.|state\\.change\\.logger|"
              + "dev\\.matview\\.kafka\\.ComposingKafkaStreams)");

  private static final Pattern STACK_TRACE =
      Pattern.compile("^\\s+at [\\w.$/]+\\(|^Caused by: |^[\\w.$]+(Exception|Error)(: .*)?$");

  @TempDir Path dir;

  @Test
  void aPassingSliceTestPrintsNoErrorNoStackTraceAndNoKafkaInfoAndLeavesNoDirectoryBehind()
      throws IOException {
    List<String> output = run("slice", QuietShopExample.class);

    assertQuiet(output);
    try (Stream<Path> left = Files.list(this.dir.resolve("tmp-slice"))) {
      assertThat(left.map(path -> path.getFileName().toString()))
          .as("the broker's and Kafka Streams' directories")
          .noneMatch(name -> name.startsWith("matview-test-"));
    }
  }

  @Test
  void aSliceTestPrintsKafkasInfoOnceALevelPropertyAsksForIt() throws IOException {
    List<String> output =
        run("slice-info", QuietShopExample.class, "-Dlogging.level.org.apache.kafka=info");

    assertThat(output).contains("child test run: 1 passed, 0 failed");
    assertThat(output).anyMatch(line -> KAFKA_INFO.matcher(line).find());
  }

  @Test
  void aPassingDriverTestPrintsNoErrorNoStackTraceAndNoKafkaInfo() throws IOException {
    assertQuiet(run("driver", QuietDriverExample.class));
  }

  private List<String> run(String name, Class<?> testClass, String... jvmOptions)
      throws IOException {
    List<String> options =
        new ArrayList<>(
            List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx512m", LOG_PATTERN));
    options.addAll(List.of(jvmOptions));
    ChildJvm child =
        new ChildJvm(name, options, ChildTestRun.class, List.of(testClass.getName()), this.dir);
    child.start();
    int exit = child.awaitExit(Duration.ofMinutes(4));
    List<String> output = Files.readAllLines(child.logFile());
    assertThat(exit).as("exit code of the test JVM, whose output is %s", output).isZero();
    return output;
  }

  private static void assertQuiet(List<String> output) {
    assertThat(output).contains("child test run: 1 passed, 0 failed");
    assertThat(output).as("ERROR lines").noneMatch(line -> line.contains("ERROR"));
    assertThat(output).as("stack traces").noneMatch(line -> STACK_TRACE.matcher(line).find());
    assertThat(output).as("interruptions").noneMatch(line -> line.contains("Interrupted"));
    assertThat(output).as("Kafka's INFO lines").noneMatch(line -> KAFKA_INFO.matcher(line).find());
  }
}
