package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Holds the README's "Testing your views" to the kit: its pom names this build's versions, and its
 * tests, with the view class of "Using the starter in your own app", compile as they stand.
 */
class ReadmeTestKitTests {

  private static final Path README = Path.of("..", "README.md");

  @TempDir Path dir;

  @Test
  void thePomItShowsNamesThisBuildsBootAndMatview() throws IOException {
    String pom = blocks("### Testing your views", "xml").get(0);
    String parentPom = Files.readString(Path.of("..", "pom.xml"));

    assertThat(pom)
        .contains("<artifactId>spring-boot-starter-parent</artifactId>")
        .contains(
            "<version>" + first(parentPom, "<parent>.*?<version>([^<]+)</version>") + "</version>")
        .contains("<artifactId>matview-spring-boot-starter</artifactId>")
        .contains("<artifactId>matview-test</artifactId>");
    String matview =
        first(parentPom, "<artifactId>matview-parent</artifactId>\\s*<version>([^<]+)</version>");
    assertThat(
            Pattern.compile("<version>" + Pattern.quote(matview) + "</version>")
                .matcher(pom)
                .results())
        .hasSize(2);
  }

  @Test
  void itsTestsCompileAgainstTheKit() throws IOException {
    Path sources = Files.createDirectories(this.dir.resolve("src/readme"));
    List<Path> files = new ArrayList<>();
    files.add(
        write(
            sources, "OrderViews", blocks("## Using the starter in your own app", "java").get(0)));
    for (String test : blocks("### Testing your views", "java")) {
      Matcher name = Pattern.compile("class (\\w+) \\{").matcher(test);
      assertThat(name.find()).as("a class in %s", test).isTrue();
      files.add(write(sources, name.group(1), test));
    }
    Path classes = Files.createDirectories(this.dir.resolve("classes"));
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "-d",
                classes.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "-proc:none"));
    files.forEach(file -> arguments.add(file.toString()));

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertThat(javac.run(null, null, null, arguments.toArray(String[]::new)))
        .as("javac of the README's tests")
        .isZero();
    assertThat(files).hasSize(3);
  }

  private static Path write(Path sources, String className, String code) throws IOException {
    return Files.writeString(sources.resolve(className + ".java"), "package readme;\n\n" + code);
  }

  /** The code blocks in {@code language} of the README's section headed {@code heading}. */
  static List<String> blocks(String heading, String language) throws IOException {
    String readme = Files.readString(README, StandardCharsets.UTF_8);
    int start = readme.indexOf("\n" + heading + "\n");
    assertThat(start).as("the README's section %s", heading).isNotNegative();
    int end = readme.indexOf("\n#", start + heading.length() + 2);
    String section = readme.substring(start, end < 0 ? readme.length() : end);
    Matcher block =
        Pattern.compile("```" + language + "\\n(.*?)```", Pattern.DOTALL).matcher(section);
    List<String> found = new ArrayList<>();
    while (block.find()) {
      found.add(block.group(1));
    }
    assertThat(found).as("%s blocks in the README's section %s", language, heading).isNotEmpty();
    return found;
  }

  private static String first(String text, String regex) {
    Matcher matcher = Pattern.compile(regex, Pattern.DOTALL).matcher(text);
    assertThat(matcher.find()).as("%s in %s", regex, text).isTrue();
    return matcher.group(1);
  }
}
