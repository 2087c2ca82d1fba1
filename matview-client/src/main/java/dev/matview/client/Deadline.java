package dev.matview.client;

import java.time.Duration;

/** The time by which a call must have its answer: it waits to ask again only while it can. */
final class Deadline {

  private final Duration length;

  private final long end;

  private Deadline(Duration length, long end) {
    this.length = length;
    this.end = end;
  }

  /** A deadline {@code length} from now. */
  static Deadline after(Duration length) {
    return new Deadline(length, System.nanoTime() + length.toNanos());
  }

  /** Whether a wait of {@code wait} from now ends before the deadline. */
  boolean allows(Duration wait) {
    return wait.toNanos() <= this.end - System.nanoTime();
  }

  /** How long the call was given. */
  Duration length() {
    return this.length;
  }
}
