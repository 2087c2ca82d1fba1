package dev.matview.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Markdown page of the README or the guide, with its fenced code blocks: a fence opens with three
 * backticks and a language at the start of a line and closes with three backticks alone.
 *
 * @param path the page's path from the repository's root, such as {@code docs/views.md}
 * @param text the page's text
 * @param blocks its code blocks, in order
 */
record MarkdownPage(String path, String text, List<CodeBlock> blocks) {

  private static final String FENCE = "```";

  private static final Pattern OPT_OUT = Pattern.compile("<!-- not tested: (.+?) -->");

  /** Reads the page at {@code relative} under {@code root}. */
  static MarkdownPage read(Path root, String relative) {
    try {
      String text = Files.readString(root.resolve(relative), StandardCharsets.UTF_8);
      return new MarkdownPage(relative, text, blocks(relative, text.lines().toList()));
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /** The blocks in {@code language}. */
  List<CodeBlock> blocks(String language) {
    return this.blocks.stream().filter(block -> block.language().equals(language)).toList();
  }

  /**
   * The lines that start or end a block however they are indented, counted without parsing: twice
   * the blocks when every fence is one the parser reads.
   */
  long fenceLines() {
    return this.text.lines().filter(line -> line.strip().startsWith(FENCE)).count();
  }

  /** The lines of the page. */
  List<String> lines() {
    return this.text.lines().toList();
  }

  private static List<CodeBlock> blocks(String page, List<String> lines) {
    List<CodeBlock> blocks = new ArrayList<>();
    int i = 0;
    while (i < lines.size()) {
      String line = lines.get(i);
      if (!line.startsWith(FENCE)) {
        i++;
        continue;
      }
      int end = i + 1;
      while (end < lines.size() && !lines.get(end).equals(FENCE)) {
        end++;
      }
      if (end == lines.size()) {
        throw new IllegalStateException(page + ":" + (i + 1) + ": a code block that never closes");
      }
      StringBuilder code = new StringBuilder();
      lines.subList(i + 1, end).forEach(codeLine -> code.append(codeLine).append('\n'));
      blocks.add(
          new CodeBlock(
              page,
              i + 1,
              line.substring(FENCE.length()).strip(),
              code.toString(),
              optOut(lines, i)));
      i = end + 1;
    }
    return List.copyOf(blocks);
  }

  /** The reason of a {@code <!-- not tested: reason -->} on the last non-blank line before. */
  private static Optional<String> optOut(List<String> lines, int fence) {
    for (int i = fence - 1; i >= 0; i--) {
      if (!lines.get(i).isBlank()) {
        Matcher comment = OPT_OUT.matcher(lines.get(i).strip());
        return comment.matches() ? Optional.of(comment.group(1)) : Optional.empty();
      }
    }
    return Optional.empty();
  }
}
