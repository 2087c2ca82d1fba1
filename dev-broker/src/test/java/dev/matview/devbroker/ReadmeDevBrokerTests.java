package dev.matview.devbroker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Holds the README's section on the development broker to this module: the dependency it shows, the
 * property its command sets, and the properties it and the README's table name.
 */
class ReadmeDevBrokerTests {

  private static final Path README = Path.of("..", "README.md");

  private static final String SECTION = "## A Kafka broker for your own app while you develop";

  private static final Pattern PROPERTY = Pattern.compile("matview\\.dev-broker\\.[a-z-]+");

  @Test
  void itsDependencyIsThisModuleOfThisBuildLeftOutOfTheJar() throws IOException {
    String version =
        match("<parent>.*?<version>([^<]+)</version>", Files.readString(Path.of("pom.xml")));

    assertThat(block("xml"))
        .contains("<groupId>dev.matview</groupId>")
        .contains("<artifactId>matview-dev-broker</artifactId>")
        .contains("<version>" + version + "</version>")
        .contains("<optional>true</optional>");
  }

  @Test
  void itsCommandSetsThePropertyThatStartsTheBroker() throws IOException {
    assertThat(block("shell"))
        .contains("-Dspring-boot.run.arguments=--" + DevBrokerProperties.PREFIX + ".enabled=true");
  }

  @Test
  void theReadmeNamesEveryPropertyOfTheModuleAndNoOther() throws IOException {
    Set<String> declared =
        names(
            Files.readString(
                Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json")));
    String readme = Files.readString(README, StandardCharsets.UTF_8);

    assertThat(names(section())).isNotEmpty().isSubsetOf(declared);
    assertThat(names(readme)).containsExactlyElementsOf(declared);
  }

  private static Set<String> names(String text) {
    Set<String> names = new TreeSet<>();
    Matcher matcher = PROPERTY.matcher(text);
    while (matcher.find()) {
      names.add(matcher.group());
    }
    return names;
  }

  private static String block(String language) throws IOException {
    return match("```" + language + "\\n(.*?)```", section());
  }

  private static String section() throws IOException {
    String readme = Files.readString(README, StandardCharsets.UTF_8);
    int start = readme.indexOf(SECTION);
    assertThat(start).as("the README's section %s", SECTION).isNotNegative();
    int end = readme.indexOf("\n## ", start + SECTION.length());
    return readme.substring(start, end < 0 ? readme.length() : end);
  }

  private static String match(String regex, String text) {
    Matcher matcher = Pattern.compile(regex, Pattern.DOTALL).matcher(text);
    assertThat(matcher.find()).as("%s in the text", regex).isTrue();
    return matcher.group(1);
  }
}
