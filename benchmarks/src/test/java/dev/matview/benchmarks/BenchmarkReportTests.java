package dev.matview.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchmarkReportTests {

  private static final Report.Machine MACHINE =
      new Report.Machine("mvn -Pbenchmarks", 2, "23 GiB", "OpenJDK 17", "2026-11-30T18:00:00Z");

  private final List<Row> rows =
      List.of(
          Row.atLeast(8, "failover", 1, 2, "s", 0.5),
          Row.atLeast(1, "lookups/s", 95, 100, "req/s", 0.9).boundedBy("CPU | 2 cores"),
          Row.none(7, "memory", "built apart"));

  @Test
  void tableListsTheRowsInTheOrderOfTheIssue() {
    String table = Report.table(this.rows);
    assertThat(table.lines().map(line -> line.substring(0, 1))).containsExactly("#", "1", "7", "8");
    assertThat(table).contains("95 req/s").contains("0.95").contains("met");
  }

  @Test
  void markdownHoldsTheMachineEveryFigureItsGoalAndVerdict() {
    String markdown = Report.markdown(MACHINE, this.rows, Map.of("lookups", List.of("a note")));
    assertThat(markdown)
        .startsWith(Report.BEGIN)
        .contains("Command: `mvn -Pbenchmarks`")
        .contains("| cores | 2 |")
        .contains("| memory | 23 GiB |")
        .contains("| JVM | OpenJDK 17 |")
        .contains("| date | 2026-11-30T18:00:00Z |")
        .contains(
            "| 1 | lookups/s | 95 req/s | 100 req/s | 0.95 | >= 0.90 of baseline | met | CPU \\| 2 cores |")
        .contains("| 7 | memory | - | - | - | - | not measured | built apart |")
        .contains("  - a note")
        .endsWith(Report.END + "\n");
  }

  @Test
  void writingAgainKeepsTheAnalysisAroundTheGeneratedPart(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("benchmarks.md");
    Report.write(file, "Benchmarks", Report.markdown(MACHINE, this.rows, Map.of()));
    String first = Files.readString(file);
    assertThat(first).startsWith("# Benchmarks\n\n" + Report.BEGIN);
    Files.writeString(file, first + "\n## What bounds each figure\n\nRow 1: the load driver.\n");
    Report.write(
        file, "Benchmarks", Report.markdown(MACHINE, List.of(Row.none(1, "x", "y")), Map.of()));
    String second = Files.readString(file);
    assertThat(second)
        .startsWith("# Benchmarks\n\n" + Report.BEGIN)
        .doesNotContain("lookups/s")
        .contains("| 1 | x | - |")
        .endsWith("## What bounds each figure\n\nRow 1: the load driver.\n");
  }
}
