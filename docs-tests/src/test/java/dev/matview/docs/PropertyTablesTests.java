package dev.matview.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The guide's tables of properties (those whose first column is headed "property") list every
 * property of Matview's and the sample's configuration metadata, and no other.
 */
class PropertyTablesTests {

  private static final Pattern ROW = Pattern.compile("^\\| `([a-z][a-z0-9.-]*)` \\|");

  @Test
  void theTablesListEveryPropertyOfMatviewAndTheSampleAndNoOther() {
    List<String> rows = rows();
    Set<String> documented = new TreeSet<>(rows);
    Set<String> declared = new TreeSet<>(ConfigurationMetadata.all().current("matview."));
    declared.addAll(ConfigurationMetadata.all().current("sample."));

    assertThat(rows).as("properties listed twice").doesNotHaveDuplicates();
    assertThat(documented).as("properties in the tables").containsExactlyElementsOf(declared);
    assertThat(declared).as("properties of the metadata").hasSizeGreaterThan(50);
  }

  /** The first cell of every row of every table of properties. */
  private static List<String> rows() {
    List<String> names = new ArrayList<>();
    for (MarkdownPage page : DocPages.all()) {
      boolean inTable = false;
      for (String line : page.lines()) {
        if (line.startsWith("| property |")) {
          inTable = true;
        } else if (!line.startsWith("|")) {
          inTable = false;
        } else if (inTable && !line.startsWith("|---")) {
          Matcher row = ROW.matcher(line);
          assertThat(row.find())
              .as("%s: a row of a table of properties: %s", page.path(), line)
              .isTrue();
          names.add(row.group(1));
        }
      }
    }
    return names;
  }
}
