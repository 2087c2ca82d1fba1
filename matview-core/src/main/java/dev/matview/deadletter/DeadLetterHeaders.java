package dev.matview.deadletter;

/** Names of the headers that Matview adds to a dead letter, next to the record's own headers. */
public final class DeadLetterHeaders {

  /** The view that could not use the record; absent when the processor belongs to no view. */
  public static final String VIEW = "matview.view";

  /** Why the view could not use the record: a {@link DeadLetterReason#tag()}. */
  public static final String REASON = "matview.reason";

  /** The topic the record was read from: a source topic, or a re-keyed view's repartition topic. */
  public static final String TOPIC = "matview.topic";

  /** The partition the record was read from. */
  public static final String PARTITION = "matview.partition";

  /** The record's offset in that partition. */
  public static final String OFFSET = "matview.offset";

  /** The Kafka Streams processor that failed. */
  public static final String PROCESSOR = "matview.processor";

  /** The fully qualified class name of the exception that made the record unusable. */
  public static final String EXCEPTION_CLASS = "matview.exception.class";

  /** That exception's message, empty when it has none. */
  public static final String EXCEPTION_MESSAGE = "matview.exception.message";

  /**
   * What was cut so that the dead letter fits the producer's size limit, with the original sizes in
   * bytes, for example {@code value=1048576}; absent when nothing was cut.
   */
  public static final String TRUNCATED = "matview.truncated";

  private DeadLetterHeaders() {}
}
