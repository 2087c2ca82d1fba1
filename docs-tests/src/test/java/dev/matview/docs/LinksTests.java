package dev.matview.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the README and the guide reaches a file of the repository, and a link to a
 * heading reaches a heading of that page (GitHub's anchors: the heading in lower case, spaces as
 * hyphens, punctuation dropped).
 */
class LinksTests {

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$", Pattern.MULTILINE);

  @Test
  void everyRelativeLinkReachesAFileAndAHeading() {
    Map<String, Set<String>> anchors = new HashMap<>();
    DocPages.all().forEach(page -> anchors.put(page.path(), anchors(page)));
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (MarkdownPage page : DocPages.all()) {
      Matcher link = LINK.matcher(withoutCode(page.text()));
      while (link.find()) {
        String target = link.group(1);
        if (target.matches("^[a-z]+:.*")) {
          continue;
        }
        checked++;
        int hash = target.indexOf('#');
        String file = (hash < 0) ? target : target.substring(0, hash);
        Path base = Path.of(page.path()).getParent();
        String resolved =
            file.isEmpty()
                ? page.path()
                : ((base == null) ? Path.of(file) : base.resolve(file)).normalize().toString();
        if (!Files.exists(DocPages.root().resolve(resolved))) {
          broken.add(page.path() + ": " + target + " (no file " + resolved + ")");
        } else if (hash >= 0
            && !anchors.getOrDefault(resolved, Set.of()).contains(target.substring(hash + 1))) {
          broken.add(page.path() + ": " + target + " (no such heading in " + resolved + ")");
        }
      }
    }
    assertThat(broken).as("broken links").isEmpty();
    assertThat(checked).as("relative links").isGreaterThan(30);
  }

  private static Set<String> anchors(MarkdownPage page) {
    Set<String> anchors = new HashSet<>();
    Matcher heading = HEADING.matcher(withoutCode(page.text()));
    while (heading.find()) {
      String anchor =
          heading
              .group(1)
              .strip()
              .toLowerCase(Locale.ROOT)
              .replaceAll("[^\\p{L}\\p{N} _-]", "")
              .replace(' ', '-');
      String unique = anchor;
      for (int n = 1; !anchors.add(unique); n++) {
        unique = anchor + "-" + n;
      }
    }
    return anchors;
  }

  /** The text with its code blocks blanked, whose lines are neither headings nor links. */
  private static String withoutCode(String text) {
    return text.replaceAll("(?ms)^```.*?^```$", "");
  }
}
