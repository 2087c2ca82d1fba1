package dev.matview.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The README and every page of the guide under {@code docs/}, read once. */
final class DocPages {

  /** The README, the page a newcomer reads first. */
  static final String README = "README.md";

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private static final List<MarkdownPage> ALL = read();

  private DocPages() {}

  /** The repository's root, where the README lies. */
  static Path root() {
    return ROOT;
  }

  /** The README first, then the guide's index and the guide's pages in the order of their names. */
  static List<MarkdownPage> all() {
    return ALL;
  }

  /** The README. */
  static MarkdownPage readme() {
    return ALL.get(0);
  }

  /** Every code block of every page. */
  static List<CodeBlock> blocks() {
    return ALL.stream().flatMap(page -> page.blocks().stream()).toList();
  }

  /** Every block in {@code language} that no comment opts out, of every page. */
  static List<CodeBlock> tested(String language) {
    return blocks().stream()
        .filter(block -> block.language().equals(language) && block.tested())
        .toList();
  }

  private static List<MarkdownPage> read() {
    if (!Files.isRegularFile(ROOT.resolve(README)) || !Files.isDirectory(ROOT.resolve("docs"))) {
      throw new IllegalStateException(
          "No README.md and docs/ in " + ROOT + ": run these tests from the module docs-tests/");
    }
    List<String> paths = new ArrayList<>();
    paths.add(README);
    try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
      files
          .map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith(".md"))
          .sorted((a, b) -> a.equals(README) ? -1 : b.equals(README) ? 1 : a.compareTo(b))
          .forEach(name -> paths.add("docs/" + name));
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    return paths.stream().map(path -> MarkdownPage.read(ROOT, path)).toList();
  }
}
