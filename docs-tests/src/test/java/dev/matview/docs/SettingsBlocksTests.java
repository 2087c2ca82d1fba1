package dev.matview.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The settings the README and the guide show are ones the build declares: every {@code yaml} and
 * {@code properties} block reads as Spring Boot reads it, and every property they and the shell
 * blocks' {@code --name=value} arguments set exists in the configuration metadata (Matview's and
 * the sample's must), is not deprecated, and takes the value given.
 */
class SettingsBlocksTests {

  private static final Pattern ARGUMENT = Pattern.compile("--([a-z][a-z0-9.-]*[a-z0-9])=(\\S*)");

  @Test
  void everySettingsBlockSetsPropertiesThatExistToValuesTheyTake() {
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (String language : List.of("yaml", "properties")) {
      assertThat(DocPages.tested(language)).as("%s blocks", language).isNotEmpty();
      for (CodeBlock block : DocPages.tested(language)) {
        for (Map.Entry<String, String> setting : Settings.of(block).entrySet()) {
          PropertyCheck.problem(block.where(), setting.getKey(), setting.getValue())
              .ifPresent(problems::add);
          checked++;
        }
      }
    }
    assertThat(problems).isEmpty();
    assertThat(checked)
        .as("settings checked, at least one a block")
        .isGreaterThanOrEqualTo(
            DocPages.tested("yaml").size() + DocPages.tested("properties").size());
  }

  @Test
  void everyPropertyACommandSetsExistsAndTakesItsValue() {
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (CodeBlock block : DocPages.tested("shell")) {
      Matcher argument = ARGUMENT.matcher(block.code());
      while (argument.find()) {
        String name = argument.group(1);
        if (name.startsWith("matview.")
            || name.startsWith("sample.")
            || name.startsWith("spring.")) {
          PropertyCheck.problem(block.where(), name, argument.group(2)).ifPresent(problems::add);
          checked++;
        }
      }
    }
    assertThat(problems).isEmpty();
    assertThat(checked).as("properties set by commands").isGreaterThan(3);
  }
}
