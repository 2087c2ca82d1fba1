package dev.matview.processes;

import dev.matview.broker.KraftBroker;
import java.nio.file.Path;
import java.util.Map;

/**
 * The entry point of the broker's own JVM: a {@link KraftBroker} that creates no topic by itself
 * and gives new topics, the consumer offsets and the transaction log three partitions.
 *
 * <p>Arguments: the client port, the controller port and the log dir.
 */
public final class BrokerMain {

  private static final Map<String, String> SETTINGS =
      Map.of(
          "auto.create.topics.enable", "false",
          "num.partitions", "3",
          "offsets.topic.num.partitions", "3",
          "transaction.state.log.num.partitions", "3",
          "group.min.session.timeout.ms", "1000");

  private BrokerMain() {}

  public static void main(String[] args) {
    if (args.length != 3) {
      throw new IllegalArgumentException(
          "Expected <client port> <controller port> <log dir>, got " + args.length + " arguments");
    }
    KraftBroker broker =
        new KraftBroker(
            Integer.parseInt(args[0]), Integer.parseInt(args[1]), Path.of(args[2]), SETTINGS);
    broker.start();
    broker.awaitShutdown();
  }
}
