package dev.matview.deadletter;

/** Told of every dead letter once it is written, for example to count them. */
@FunctionalInterface
public interface DeadLetterListener {

  /** A listener that does nothing. */
  DeadLetterListener NONE = letter -> {};

  /** Called after {@code letter} was written to the dead-letter topic. */
  void published(DeadLetter letter);
}
