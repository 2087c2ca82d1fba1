package dev.matview.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness's own parts find what they must and refuse what they must, on made-up pages. */
class HarnessTests {

  @TempDir Path dir;

  @Test
  void aPageGivesItsBlocksWithTheirLanguagesLinesAndOptOuts() throws Exception {
    Files.writeString(
        this.dir.resolve("page.md"),
        "# Title\n\n```java\nclass A {}\n```\n\n<!-- not tested: a sketch -->\n```yaml\na: 1\n```\n");

    MarkdownPage page = MarkdownPage.read(this.dir, "page.md");

    assertThat(page.blocks())
        .extracting(CodeBlock::language, CodeBlock::line, CodeBlock::code, CodeBlock::optOut)
        .containsExactly(
            tuple("java", 3, "class A {}\n", Optional.empty()),
            tuple("yaml", 8, "a: 1\n", Optional.of("a sketch")));
    assertThat(page.fenceLines()).isEqualTo(4);
  }

  @Test
  void aBlockThatNeverClosesIsNamed() throws Exception {
    Files.writeString(this.dir.resolve("open.md"), "text\n```shell\nmvn verify\n");

    assertThatIllegalStateException()
        .isThrownBy(() -> MarkdownPage.read(this.dir, "open.md"))
        .withMessage("open.md:2: a code block that never closes");
  }

  @Test
  void shellCommandsAreSplitAsAShellSplitsThem() {
    List<List<String>> commands =
        ShellCommands.of(
            "git clone x matview && cd matview   # two\n"
                + "curl -X POST localhost:8080/orders -H 'Content-Type: application/json' \\\n"
                + "     -d '{\"a\": \"b # c\"}'\n");

    assertThat(commands)
        .containsExactly(
            List.of("git", "clone", "x", "matview"),
            List.of("cd", "matview"),
            List.of(
                "curl",
                "-X",
                "POST",
                "localhost:8080/orders",
                "-H",
                "Content-Type: application/json",
                "-d",
                "{\"a\": \"b # c\"}"));
  }

  @Test
  void aCurlCommandGivesItsRequest() {
    CurlRequest request =
        CurlRequest.of(
            "page.md:1",
            ShellCommands.of(
                    "curl -N \"localhost:8081/views/v/keys?limit=5\" -H \"Last-Event-ID: 3\"")
                .get(0));

    assertThat(request.method()).isEqualTo("GET");
    assertThat(request.pathAndQuery()).isEqualTo("/views/v/keys?limit=5");
    assertThat(request.headers()).containsExactly("Last-Event-ID", "3");
    assertThat(request.streamed()).isTrue();
    assertThat(CurlRequest.of("p", List.of("curl", "-d", "{}", "localhost/x")).method())
        .isEqualTo("POST");
  }

  @Test
  void aPropertyIsHeldToTheMetadata() {
    assertThat(PropertyCheck.problem("p", "matview.web.max-page-size", "500")).isEmpty();
    assertThat(PropertyCheck.problem("p", "matview.web.max-page-sise", "500"))
        .hasValueSatisfying(problem -> assertThat(problem).contains("no property"));
    assertThat(PropertyCheck.problem("p", "matview.web.max-page-size", "lots"))
        .hasValueSatisfying(problem -> assertThat(problem).contains("is no Integer"));
    assertThat(PropertyCheck.problem("p", "matview.changes.history", "10"))
        .hasValueSatisfying(
            problem -> assertThat(problem).contains("matview.changes.history-size"));
    assertThat(
            PropertyCheck.problem(
                "p", "management.endpoint.health.show-details", "always   # with details"))
        .as("a value with a comment, which a properties file does not have")
        .isPresent();
    assertThat(PropertyCheck.problem("p", "sample.generator.rate", "50")).isEmpty();
  }

  @Test
  void aPagesAvroRecordSchemaIsCompiledWithItsJava() throws Exception {
    Files.writeString(
        this.dir.resolve("avro.md"),
        "```json\n{\"type\": \"record\", \"name\": \"Parcel\", \"namespace\": \"p\","
            + " \"fields\": [{\"name\": \"id\", \"type\": \"string\"}]}\n```\n\n"
            + "```java\npackage p;\n\nclass Use {\n  String id(Parcel parcel) {\n"
            + "    return parcel.getId();\n  }\n}\n```\n");

    PageCompiler.CompiledPage page =
        PageCompiler.compile(MarkdownPage.read(this.dir, "avro.md"), List.of(), this.dir);

    assertThat(page.classNames()).contains("p.Parcel", "p.Use");
    assertThat(page.units()).isOne();
  }

  @Test
  void aFragmentOfJavaIsRefusedAndAnErrorNamedAtItsPageLine() throws Exception {
    CodeBlock fragment =
        new CodeBlock(
            "page.md", 10, "java", "@Bean\nNewTopic orders() { return null; }\n", Optional.empty());
    assertThatIllegalArgumentException()
        .isThrownBy(() -> JavaUnit.of(fragment))
        .withMessageContaining("page.md:10: a java block must be a whole compilation unit");

    Files.writeString(
        this.dir.resolve("broken.md"),
        "intro\n\n```java\npackage p;\n\nclass B {\n  int x = \"one\";\n}\n```\n");
    assertThatExceptionOfType(AssertionError.class)
        .isThrownBy(
            () ->
                PageCompiler.compile(MarkdownPage.read(this.dir, "broken.md"), List.of(), this.dir))
        .withMessageContaining("broken.md:7: incompatible types");
  }
}
