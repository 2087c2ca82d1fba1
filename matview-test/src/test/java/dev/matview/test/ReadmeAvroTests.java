package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Holds the README's "Avro values" to the code the build runs: its schema is the one the example's
 * class is generated from, its views are the classes that {@link AvroViewsIntegrationTests} and
 * {@link AvroViewsDriverTests} run, word for word, and its dependencies name this build's Avro.
 */
class ReadmeAvroTests {

  private static final String SECTION = "### Avro values";

  private static final Path TESTS = Path.of("src", "test");

  @Test
  void itsSchemaIsTheOneTheExampleRecordsAreGeneratedFrom() throws IOException {
    assertThat(ReadmeTestKitTests.blocks(SECTION, "json"))
        .containsExactly(Files.readString(TESTS.resolve("avro/shipment.avsc")));
  }

  @Test
  void itsViewsAreTheClassesTheTestsRun() throws IOException {
    assertThat(ReadmeTestKitTests.blocks(SECTION, "java"))
        .containsExactly(withoutPackage("ShipmentViews"));
    assertThat(ReadmeTestKitTests.blocks("#### Avro values with a schema registry", "java"))
        .containsExactly(withoutPackage("RegisteredShipmentViews"));
  }

  @Test
  void itsDependenciesNameThisBuildsAvro() throws IOException {
    Matcher version =
        Pattern.compile("<avro.version>([^<]+)</avro.version>")
            .matcher(Files.readString(Path.of("..", "pom.xml")));
    assertThat(version.find()).isTrue();
    List<String> xml = ReadmeTestKitTests.blocks(SECTION, "xml");
    assertThat(xml).singleElement().asString().contains("<artifactId>avro</artifactId>");
    assertThat(
            Pattern.compile(Pattern.quote("<version>" + version.group(1) + "</version>"))
                .matcher(xml.get(0))
                .results())
        .as("the versions of avro and avro-maven-plugin")
        .hasSize(2);
  }

  private static String withoutPackage(String className) throws IOException {
    String source = Files.readString(TESTS.resolve("java/dev/matview/test/" + className + ".java"));
    String header = "package dev.matview.test;\n\n";
    assertThat(source).startsWith(header);
    return source.substring(header.length());
  }
}
