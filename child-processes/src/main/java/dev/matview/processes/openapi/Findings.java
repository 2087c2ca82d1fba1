package dev.matview.processes.openapi;

import java.util.ArrayList;
import java.util.List;

/** The findings of one check of a document, in the order they were found. */
final class Findings {

  private final List<Finding> found = new ArrayList<>();

  /** Records that {@code rule} is broken at {@code where}. */
  void add(String rule, String where, String message) {
    this.found.add(new Finding(rule, where, message));
  }

  /** Records that {@code rule} is broken at {@code where} unless {@code holds}. */
  void unless(boolean holds, String rule, String where, String message) {
    if (!holds) {
      add(rule, where, message);
    }
  }

  List<Finding> all() {
    return List.copyOf(this.found);
  }
}
