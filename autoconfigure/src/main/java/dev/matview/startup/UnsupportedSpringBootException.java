package dev.matview.startup;

import dev.matview.view.StartupFailure;

/** Thrown as the application starts on a Spring Boot version Matview was not built for. */
public class UnsupportedSpringBootException extends RuntimeException implements StartupFailure {

  private final String found;

  private final String description;

  private final String action;

  UnsupportedSpringBootException(String found, String description, String action) {
    super(description + System.lineSeparator() + action);
    this.found = found;
    this.description = description;
    this.action = action;
  }

  /** The Spring Boot version the application runs on. */
  public String getFound() {
    return this.found;
  }

  /** What is wrong. */
  @Override
  public String getDescription() {
    return this.description;
  }

  /** How to fix it. */
  @Override
  public String getAction() {
    return this.action;
  }
}
