package dev.matview.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.docs.PageCompiler.CompiledPage;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Every {@code java} block of the README and the guide compiles with the other java blocks of its
 * page, each a whole source file, and the tests among them pass, run in one session of the JUnit
 * Platform.
 */
@Execution(ExecutionMode.CONCURRENT)
class JavaBlocksTests {

  private static final Pattern TEST = Pattern.compile("@Test\\b");

  @Test
  void everyPagesJavaBlocksCompileTogether() {
    List<CompiledPage> pages = CompiledPages.get().pages();

    assertThat(pages)
        .extracting(CompiledPage::page)
        .containsExactlyElementsOf(DocPages.all().stream().map(MarkdownPage::path).toList());
    assertThat(pages.stream().mapToInt(CompiledPage::units).sum())
        .as("source files compiled, one a java block")
        .isEqualTo(DocPages.tested("java").size())
        .isGreaterThan(8);
    assertThat(pages.get(0).classNames()).as("the README's classes").isNotEmpty();
  }

  @Test
  void theTestsAmongThemPass() throws ClassNotFoundException {
    CompiledPages compiled = CompiledPages.get();
    List<String> classNames =
        compiled.pages().stream().flatMap(page -> page.classNames().stream()).toList();

    TestExecutionSummary summary = BlockTestRun.run(compiled.all(), classNames);

    String report = BlockTestRun.describe(summary);
    System.out.print(report);
    assertThat(summary.getTotalFailureCount()).as(report).isZero();
    assertThat(summary.getTestsFoundCount())
        .as("tests run, one an @Test of the java blocks")
        .isEqualTo(annotatedTests())
        .isGreaterThan(2);
    assertThat(summary.getTestsSucceededCount()).as(report).isEqualTo(summary.getTestsFoundCount());
  }

  private static long annotatedTests() {
    return DocPages.tested("java").stream()
        .mapToLong(block -> TEST.matcher(block.code()).results().count())
        .sum();
  }
}
