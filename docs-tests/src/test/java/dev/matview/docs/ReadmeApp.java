package dev.matview.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.annotation.Annotation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The app the README builds, as the README runs it: its classes, its one {@code application.yml}
 * (on its class path, as {@code src/main/resources} puts it) and the arguments of its {@code
 * spring-boot:run} command, with only what a test needs added (a free port and a state directory of
 * its own; the development broker's data is not kept).
 */
final class ReadmeApp {

  private static final Pattern RUN_ARGUMENTS =
      Pattern.compile("^-Dspring-boot\\.run\\.arguments=(.+)$");

  private ReadmeApp() {}

  /** Starts the README's app in {@code dir}. */
  static RunningApp start(Path dir) throws ClassNotFoundException {
    List<String> arguments = new ArrayList<>(runArguments());
    arguments.addAll(
        List.of(
            "--spring.main.banner-mode=off",
            "--server.port=0",
            "--spring.kafka.streams.state-dir=" + dir.resolve("kafka-streams"),
            "--matview.dev-broker.keep-data=false",
            "--matview.advertised-host=localhost"));
    ClassLoader loader = CompiledPages.get().readme();
    return RunningApp.start(loader, application(loader), arguments);
  }

  /** The arguments the README's {@code mvn spring-boot:run} of the reader's app passes. */
  static List<String> runArguments() {
    List<String> found = new ArrayList<>();
    for (CodeBlock block : DocPages.readme().blocks("shell")) {
      for (List<String> command : ShellCommands.of(block.code())) {
        if (command.contains("spring-boot:run") && !command.contains("-pl")) {
          for (String word : command) {
            Matcher arguments = RUN_ARGUMENTS.matcher(word);
            if (arguments.matches()) {
              found.addAll(List.of(arguments.group(1).split(" ")));
            }
          }
        }
      }
    }
    assertThat(found)
        .as("the arguments of the README's mvn spring-boot:run of the reader's app")
        .isNotEmpty();
    return found;
  }

  /** The README's class annotated {@code @SpringBootApplication}. */
  private static String application(ClassLoader loader) throws ClassNotFoundException {
    List<String> applications = new ArrayList<>();
    for (String name : CompiledPages.get().pages().get(0).classNames()) {
      Class<? extends Annotation> annotation = SpringBootApplication.class;
      if (Class.forName(name, false, loader).isAnnotationPresent(annotation)) {
        applications.add(name);
      }
    }
    assertThat(applications).as("the README's @SpringBootApplication").hasSize(1);
    return applications.get(0);
  }

  /** The answer the README promises for {@code lookup} once its key has three orders. */
  static String promisedAnswer(String lookup) {
    Matcher answer =
        Pattern.compile("`GET " + Pattern.quote(lookup) + "`\\s+answers\\s+`([^`]+)`\\s+once")
            .matcher(DocPages.readme().text());
    assertThat(answer.find()).as("the README's promised answer of %s", lookup).isTrue();
    return answer.group(1);
  }
}
