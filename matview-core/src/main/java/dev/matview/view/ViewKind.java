package dev.matview.view;

import java.util.Locale;

/** The shape of a view's results. */
public enum ViewKind {
  /** One current value per key. */
  TABLE,
  /** One value per key and time window. */
  WINDOWED,
  /** One value per key and session. */
  SESSION;

  /** The lower-case name used in the HTTP API. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
