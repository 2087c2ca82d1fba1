package dev.matview.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every code block of the README and the guide is one the harness reads and checks by its language;
 * the counts it prints are what the other tests of this module check.
 */
class DocBlocksTests {

  /** The languages a block may be in, and what the harness checks of each. */
  static final Map<String, String> LANGUAGES = languages();

  @Test
  void everyFenceOfEveryPageIsABlockTheHarnessReads() {
    for (MarkdownPage page : DocPages.all()) {
      assertThat(page.fenceLines())
          .as(
              "lines starting with ``` in %s, each block opening at the start of a line",
              page.path())
          .isEqualTo(2L * page.blocks().size());
    }
    assertThat(DocPages.all())
        .extracting(MarkdownPage::path)
        .contains("README.md", "docs/README.md");
  }

  @Test
  void everyBlockNamesALanguageTheHarnessChecks() {
    assertThat(DocPages.blocks())
        .allSatisfy(
            block ->
                assertThat(LANGUAGES)
                    .as(
                        "%s: a block in '%s'; name one of %s (output: text)",
                        block.where(), block.language(), LANGUAGES.keySet())
                    .containsKey(block.language()));
  }

  @Test
  void theBlocksOfEveryLanguageAreCountedAndTheOptOutsNamed() {
    StringBuilder report = new StringBuilder("Code blocks of the README and docs/*.md:\n");
    LANGUAGES.forEach(
        (language, check) -> {
          List<CodeBlock> blocks =
              DocPages.blocks().stream()
                  .filter(block -> block.language().equals(language))
                  .toList();
          long tested = blocks.stream().filter(CodeBlock::tested).count();
          String checked = language.equals("text") ? "  -" : String.format("%3d", tested);
          report.append(
              String.format(
                  "  %-10s %3d blocks, %s checked: %s%n", language, blocks.size(), checked, check));
        });
    List<CodeBlock> optedOut = DocPages.blocks().stream().filter(block -> !block.tested()).toList();
    report.append("  not tested: ").append(optedOut.size()).append('\n');
    optedOut.forEach(
        block ->
            report
                .append("    ")
                .append(block.where())
                .append(": ")
                .append(block.optOut().orElseThrow())
                .append('\n'));
    System.out.print(report);

    assertThat(DocPages.blocks()).hasSizeGreaterThan(40);
    for (String language : List.of("java", "xml", "yaml", "properties", "shell", "json")) {
      assertThat(DocPages.tested(language)).as("checked %s blocks", language).isNotEmpty();
    }
    assertThat(optedOut).as("blocks that opt out; keep them rare").hasSizeLessThanOrEqualTo(3);
  }

  private static Map<String, String> languages() {
    Map<String, String> languages = new LinkedHashMap<>();
    languages.put("java", "compiled with its page's java blocks, the tests among them run");
    languages.put("xml", "well-formed; dev.matview coordinates name this build's modules");
    languages.put("yaml", "read as Spring Boot reads it; names and values as the metadata says");
    languages.put(
        "properties", "read as Spring Boot reads it; names and values as the metadata says");
    languages.put("shell", "mvn's modules and profiles, java -jar's jar and curl's endpoint exist");
    languages.put("json", "parses");
    languages.put("text", "nothing: output, shown as it is");
    return languages;
  }
}
