package dev.matview.check;

import java.util.Objects;

/**
 * A topic that would keep a view from working or restoring, what is wrong and how to fix it, as a
 * command line where there is one.
 */
public record TopicProblem(String topic, String problem, String fix) {

  /** A problem of {@code topic}; no part may be null. */
  public TopicProblem {
    Objects.requireNonNull(topic, "topic must not be null");
    Objects.requireNonNull(problem, "problem must not be null");
    Objects.requireNonNull(fix, "fix must not be null");
  }

  @Override
  public String toString() {
    return this.problem + " Fix: " + this.fix;
  }
}
