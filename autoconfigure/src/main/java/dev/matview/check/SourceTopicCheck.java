package dev.matview.check;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The rule that every source topic exists; the problem of one that does not names every view that
 * reads it, the existing topics its name is close to, and the command and the bean that create it.
 */
final class SourceTopicCheck {

  private final FixCommands fixes;

  /** A check whose fixes {@code fixes} writes. */
  SourceTopicCheck(FixCommands fixes) {
    this.fixes = fixes;
  }

  /** Adds a problem when {@code source}, read by {@code viewNames}, is not in {@code topics}. */
  void check(
      String source, List<String> viewNames, TopicSnapshot topics, List<TopicProblem> problems) {
    if (topics.exists(source)) {
      return;
    }
    List<String> suggestions = TopicSuggestions.closeTo(source, topics.names());
    problems.add(
        new TopicProblem(
            source,
            "Source topic '"
                + source
                + "' of "
                + viewList(viewNames)
                + " does not exist, so Kafka Streams cannot read it."
                + (suggestions.isEmpty() ? "" : " Did you mean " + alternatives(suggestions) + "?"),
            "create it with "
                + this.fixes.createTopic(source)
                + ", or declare it as a bean, which Spring Boot's KafkaAdmin creates at start-up: "
                + this.fixes.newTopicBean(source)));
  }

  private static String viewList(List<String> names) {
    String quoted = names.stream().map(name -> "'" + name + "'").collect(Collectors.joining(", "));
    return (names.size() == 1 ? "view " : "views ") + quoted;
  }

  private static String alternatives(List<String> topics) {
    List<String> quoted = topics.stream().map(topic -> "'" + topic + "'").toList();
    int last = quoted.size() - 1;
    return (last == 0)
        ? quoted.get(0)
        : String.join(", ", quoted.subList(0, last)) + " or " + quoted.get(last);
  }
}
