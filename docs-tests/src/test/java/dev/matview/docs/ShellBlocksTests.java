package dev.matview.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code mvn} and {@code java -jar} commands of the README and the guide name what this build
 * has: modules ({@code -pl}), profiles ({@code -P}), a module that runs with {@code
 * spring-boot:run}, and a module's jar at this build's version. Their {@code curl} commands are
 * sent to a running app by {@link RunningAppsTests}.
 */
class ShellBlocksTests {

  private final Reactor build = Reactor.build();

  @Test
  void everyMavenCommandNamesModulesAndProfilesOfThisBuild() {
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (CodeBlock block : DocPages.tested("shell")) {
      for (List<String> command : ShellCommands.of(block.code())) {
        if (command.get(0).equals("mvn")) {
          problems.addAll(mavenProblems(block, command));
          checked++;
        }
      }
    }
    assertThat(problems).isEmpty();
    assertThat(checked).as("mvn commands").isGreaterThan(10);
  }

  @Test
  void everyJarAJavaCommandRunsIsAModulesJarOfThisVersion() {
    int checked = 0;
    for (CodeBlock block : DocPages.tested("shell")) {
      for (List<String> command : ShellCommands.of(block.code())) {
        int jar = command.indexOf("-jar");
        if (command.get(0).equals("java") && jar > 0) {
          String path = command.get(jar + 1);
          String module = path.substring(0, path.indexOf('/'));
          assertThat(this.build.modules())
              .as("%s: the module of %s", block.where(), path)
              .containsKey(module);
          assertThat(path)
              .as("%s: the jar of %s", block.where(), module)
              .isEqualTo(
                  module
                      + "/target/"
                      + this.build.artifactId(module)
                      + "-"
                      + this.build.version()
                      + ".jar");
          checked++;
        }
      }
    }
    assertThat(checked).as("java -jar commands").isPositive();
  }

  private List<String> mavenProblems(CodeBlock block, List<String> command) {
    List<String> problems = new ArrayList<>();
    List<String> modules = new ArrayList<>();
    for (int i = 1; i < command.size(); i++) {
      String word = command.get(i);
      if (word.equals("-pl") || word.equals("--projects")) {
        modules.addAll(List.of(command.get(++i).split(",")));
      } else if (word.equals("-P") || word.equals("--activate-profiles")) {
        problems.addAll(profileProblems(block, command.get(++i)));
      } else if (word.startsWith("-P")) {
        problems.addAll(profileProblems(block, word.substring(2)));
      }
    }
    for (String module : modules) {
      String directory = module.replaceFirst("^[!:]", "");
      if (!this.build.modules().containsKey(directory)) {
        problems.add(
            block.where()
                + ": -pl "
                + module
                + " is no module of "
                + this.build.modules().keySet());
      } else if (runs(command)
          && this.build.property(directory, "spring-boot.run.skip", "true").equals("true")) {
        problems.add(block.where() + ": " + directory + " skips spring-boot:run (its pom says so)");
      }
    }
    return problems;
  }

  private static boolean runs(List<String> command) {
    return command.contains("spring-boot:run") || command.contains("spring-boot:test-run");
  }

  private List<String> profileProblems(CodeBlock block, String profiles) {
    List<String> problems = new ArrayList<>();
    for (String profile : profiles.split(",")) {
      String id = profile.replaceFirst("^[!?-]", "");
      if (!this.build.profiles().contains(id)) {
        problems.add(block.where() + ": -P" + id + " is no profile of " + this.build.profiles());
      }
    }
    return problems;
  }
}
