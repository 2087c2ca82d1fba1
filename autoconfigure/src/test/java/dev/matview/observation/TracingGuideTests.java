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
 * Holds the guide's page on tracing (docs/tracing.md) to the code: it names every observation and
 * key value of {@link MatviewObservations}, and its dependencies are the ones the tracing tests run
 * on.
 */
class TracingGuideTests {

  private static final Path PAGE = Path.of("..", "docs", "tracing.md");

  @Test
  void itNamesEveryObservationAndKeyValueOfMatviewObservations() throws Exception {
    String text = page();
    List<String> names = new ArrayList<>();
    for (Field field : MatviewObservations.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        names.add((String) field.get(null));
      }
    }

    assertThat(names).hasSize(10);
    assertThat(names).allSatisfy(name -> assertThat(text).contains("`" + name + "`"));
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
        Pattern.compile("```" + language + "\\n(.*?)```", Pattern.DOTALL).matcher(page());
    assertThat(matcher.find()).as("a %s block on the page", language).isTrue();
    return matcher.group(1);
  }

  private static String page() throws IOException {
    String page = Files.readString(PAGE, StandardCharsets.UTF_8);
    assertThat(page).as("the guide's page on tracing").startsWith("# Tracing\n");
    return page;
  }
}
