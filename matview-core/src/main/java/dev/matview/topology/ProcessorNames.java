package dev.matview.topology;

/** Names of the processors that a view adds to the topology, by which failures are traced back. */
public final class ProcessorNames {

  private ProcessorNames() {}

  /** The processor that reads a view's record values and sets their event time. */
  public static String decoder(String view) {
    return view + "-decode";
  }

  /**
   * The processor in front of a view's steps for each record of the topic that feeds its store,
   * which tells the store partition how far it has applied that topic.
   */
  public static String appliedOffsets(String view) {
    return view + "-applied";
  }

  /** The processor that names a re-keyed record's source record before the repartition topic. */
  public static String inputStamp(String view) {
    return view + "-input-stamp";
  }

  /** The processor that reads a re-keyed view's record values after its repartition topic. */
  public static String repartitionedDecoder(String view) {
    return view + "-decode-repartitioned";
  }

  /** The processor that computes a re-keyed view's key; it is named like the view. */
  public static String keySelector(String view) {
    return view;
  }

  /**
   * The processor that refuses a windowed view's late records: a time-windowed view's just before
   * its aggregation, a session view's just after it, from the records it leaves out as late.
   */
  public static String lateGate(String view) {
    return view + "-late-gate";
  }

  /** The processor that folds a view's records into its store. */
  public static String aggregator(String view) {
    return view + "-aggregate";
  }

  /** The source processor of a topic. */
  public static String source(String topic) {
    return topic + "-source";
  }
}
