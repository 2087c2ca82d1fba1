package dev.matview.processes.openapi;

/** A rule an OpenAPI document breaks, where, and how. */
public record Finding(String rule, String where, String message) {

  @Override
  public String toString() {
    return this.rule + " at " + this.where + (this.message.isEmpty() ? "" : ": " + this.message);
  }
}
