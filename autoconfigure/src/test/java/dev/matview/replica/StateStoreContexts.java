package dev.matview.replica;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;

/** Real contexts to open Kafka's stores in, from Kafka Streams' test utilities. */
final class StateStoreContexts {

  private StateStoreContexts() {}

  /** A context of task 0_0 whose stores keep their state under {@code stateDir}. */
  static StateStoreContext of(Path stateDir) {
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    return new MockProcessorContext<>(config, new TaskId(0, 0), stateDir.toFile())
        .getStateStoreContext();
  }
}
