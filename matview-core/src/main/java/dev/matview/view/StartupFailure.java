package dev.matview.view;

/**
 * A failure that stops an application from starting, for a cause its owner can fix: a view declared
 * wrongly, a property out of range, a topic or a broker that cannot serve the views. Each says what
 * is wrong and where, and what to do; Matview's failure analyzer prints the two.
 */
public interface StartupFailure {

  /** What is wrong, naming the view, bean, property or topic concerned. */
  String getDescription();

  /** How to fix it. */
  String getAction();
}
