package dev.matview.docs;

import java.util.Optional;

/**
 * One fenced code block of a page.
 *
 * @param page the page's path from the repository's root, such as {@code docs/views.md}
 * @param line the line of its opening fence, counted from 1
 * @param language the language its fence names, empty when it names none
 * @param code its text, each line ending with a line break
 * @param optOut why it is not tested, from the HTML comment right above it, if there is one
 */
record CodeBlock(String page, int line, String language, String code, Optional<String> optOut) {

  /** Where the block is, for messages: {@code docs/views.md:42}. */
  String where() {
    return this.page + ":" + this.line;
  }

  /** Whether the harness checks the block, that is whether no comment opts it out. */
  boolean tested() {
    return this.optOut.isEmpty();
  }

  /** The page's line of the block's {@code n}th line, counted from 1. */
  int pageLine(int n) {
    return this.line + n;
  }
}
