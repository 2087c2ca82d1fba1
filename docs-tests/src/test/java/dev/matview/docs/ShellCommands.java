package dev.matview.docs;

import java.util.ArrayList;
import java.util.List;

/**
 * The commands of a {@code shell} block, each as the words a POSIX shell would pass: lines that end
 * in a backslash go on, single and double quotes group, an unquoted {@code #} at the start of a
 * word starts a comment, and {@code &&}, {@code ;} and {@code |} separate commands.
 */
final class ShellCommands {

  private ShellCommands() {}

  /** The commands of {@code code}, in order; empty lines and comments give none. */
  static List<List<String>> of(String code) {
    List<List<String>> commands = new ArrayList<>();
    for (String line : code.replace("\\\n", " ").lines().toList()) {
      List<String> command = new ArrayList<>();
      for (String word : words(line)) {
        if (word.equals("&&") || word.equals(";") || word.equals("|")) {
          addIfAny(commands, command);
          command = new ArrayList<>();
        } else {
          command.add(word);
        }
      }
      addIfAny(commands, command);
    }
    return commands;
  }

  private static void addIfAny(List<List<String>> commands, List<String> command) {
    if (!command.isEmpty()) {
      commands.add(List.copyOf(command));
    }
  }

  private static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else if (c == '#' && !inWord) {
        break;
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("A quote that never closes in: " + line);
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }
}
