package dev.matview.check;

import java.util.Collection;
import java.util.Locale;

/** Writes the command lines that fix a topic, for one cluster and one Kafka Streams application. */
final class FixCommands {

  private final String bootstrapServers;

  private final String applicationId;

  private final String inputTopics;

  /** Commands for an application whose views read {@code inputTopics}. */
  FixCommands(String bootstrapServers, String applicationId, Collection<String> inputTopics) {
    this.bootstrapServers = bootstrapServers;
    this.applicationId = applicationId;
    this.inputTopics = String.join(",", inputTopics);
  }

  /** Creates {@code topic}; the partition count is the user's to choose. */
  String createTopic(String topic) {
    return "kafka-topics.sh --bootstrap-server "
        + this.bootstrapServers
        + " --create --topic "
        + topic
        + " --partitions <partitions>";
  }

  /** Declares {@code topic} as a bean, which {@code KafkaAdmin} creates before the checks. */
  String newTopicBean(String topic) {
    return "@Bean NewTopic "
        + beanName(topic)
        + "() { return TopicBuilder.name(\""
        + topic
        + "\").partitions(<partitions>).build(); }";
  }

  /** A Java method name for the bean of {@code topic}: its words in camel case, then "Topic". */
  private static String beanName(String topic) {
    StringBuilder name = new StringBuilder();
    for (String word : topic.split("[^A-Za-z0-9]+")) {
      if (!word.isEmpty()) {
        name.append(
            name.isEmpty()
                ? word.substring(0, 1).toLowerCase(Locale.ROOT)
                : word.substring(0, 1).toUpperCase(Locale.ROOT));
        name.append(word.substring(1));
      }
    }
    if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
      name.insert(0, "topic");
    }
    return name.append("Topic").toString();
  }

  /** Sets the topic config {@code setting} ({@code name=value}) of {@code topic}. */
  String alterConfig(String topic, String setting) {
    return "kafka-configs.sh --bootstrap-server "
        + this.bootstrapServers
        + " --alter --entity-type topics --entity-name "
        + topic
        + " --add-config "
        + setting;
  }

  /** Deletes the application's internal topics and rewinds its input, so views are rebuilt. */
  String resetApplication() {
    return "kafka-streams-application-reset.sh --bootstrap-server "
        + this.bootstrapServers
        + " --application-id "
        + this.applicationId
        + " --input-topics "
        + this.inputTopics
        + " (it deletes the internal topics and rewinds the source topics), then start once with"
        + " spring.kafka.streams.cleanup.on-startup=true so that every view is rebuilt from its"
        + " source topic";
  }
}
