package dev.matview.observation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Holds the README's section on tracing to the code: it names every observation and key value of
 * {@link MatviewObservations}, and its dependencies are the ones the tracing tests run on.
 */
class ReadmeTracingTests {

  private static final Path README = Path.of("..", "README.md");

  private static final String SECTION = "## Tracing";

  @Test
  void itNamesEveryObservationAndKeyValueOfMatviewObservations() throws Exception {
    String section = section();
    List<String> names = new ArrayList<>();
    for (Field field : MatviewObservations.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        names.add((String) field.get(null));
      }
    }

    assertThat(names).hasSize(10);
    assertThat(names).allSatisfy(name -> assertThat(section).contains("`" + name + "`"));
  }

  @Test
  void itsDependenciesAreTheOnesTheTracingTestsRunOn() throws IOException {
    String pom = Files.readString(Path.of("pom.xml"));
    Matcher artifacts = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(block("xml"));
    List<String> named = new ArrayList<>();
    while (artifacts.find()) {
      named.add(artifacts.group(1));
    }

    assertThat(named)
        .containsExactly("spring-boot-micrometer-tracing-brave", "micrometer-tracing-bridge-brave")
        .allSatisfy(artifact -> assertThat(pom).contains("<artifactId>" + artifact + "<"));
  }

  private static String block(String language) throws IOException {
    Matcher matcher =
        Pattern.compile("```" + language + "\\n(.*?)```", Pattern.DOTALL).matcher(section());
    assertThat(matcher.find()).as("a %s block in the section", language).isTrue();
    return matcher.group(1);
  }

  private static String section() throws IOException {
    String readme = Files.readString(README, StandardCharsets.UTF_8);
    int start = readme.indexOf("\n" + SECTION + "\n");
    assertThat(start).as("the README's section %s", SECTION).isNotNegative();
    int end = readme.indexOf("\n## ", start + SECTION.length() + 1);
    return readme.substring(start, end < 0 ? readme.length() : end);
  }
}
